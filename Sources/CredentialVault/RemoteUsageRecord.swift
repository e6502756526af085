import JSON
import Replication
import Sodium

/// What the remote held when a sync last measured it (`remote-usage.json`), for `status`, which
/// never contacts the remote. Measuring lists every object, so sync does it at most hourly.
struct RemoteUsageRecord: Codable {
    static let fileName = "remote-usage.json"
    static let intervalSeconds: Int64 = 3_600

    let objects: Int
    let bytes: Int64
    /// Unix seconds.
    let measuredAt: Int64

    enum CodingKeys: String, CodingKey {
        case objects, bytes
        case measuredAt = "measured_at"
    }

    static func load(from directory: VaultDirectory) -> RemoteUsageRecord? {
        let path = directory.path + "/" + fileName
        guard VaultDirectory.exists(path), let contents = try? SecretBytes.read(contentsOfFile: path, limit: 4 << 10) else { return nil }
        return contents.withUnsafeBytes { try? JSONCodec.decode(RemoteUsageRecord.self, from: Array($0)) }
    }

    /// Measures and saves when the last measurement is an hour old (or missing), or when
    /// `force`d; best effort: a remote that cannot be listed now is measured at a later sync.
    static func refresh(_ remote: any Remote, in directory: VaultDirectory, now: Int64, force: Bool = false) {
        if !force, let last = load(from: directory), now - last.measuredAt < intervalSeconds, now >= last.measuredAt { return }
        guard let usage = try? remote.usage() else { return }
        let record = RemoteUsageRecord(objects: usage.objects, bytes: usage.bytes, measuredAt: now)
        guard let encoded = try? JSONCodec.encode(record, pretty: false) else { return }
        try? AtomicFile.write(encoded + [0x0a], to: directory.path + "/" + fileName)
    }
}
