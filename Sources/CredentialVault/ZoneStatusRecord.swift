import JSON

/// The last sync outcome of each zone, kept in `sync-status.json` so `status` can report it
/// honestly between runs.
struct ZoneStatusRecord: Codable {
    static let fileName = "sync-status.json"

    var state: String
    var reason: String?
    /// Unix seconds of the last successful fetch and send.
    var lastFetch: Int64?
    var lastSend: Int64?
    /// Objects the last run found behind a gap (an earlier object of the same device not
    /// delivered yet), and since when (Unix seconds) runs have kept finding such a gap.
    var waiting: Int?
    var waitingSince: Int64?

    enum CodingKeys: String, CodingKey {
        case state, reason, waiting
        case lastFetch = "last_fetch"
        case lastSend = "last_send"
        case waitingSince = "waiting_since"
    }

    static func load(from directory: VaultDirectory) -> [String: ZoneStatusRecord] {
        let path = directory.path + "/" + fileName
        guard VaultDirectory.exists(path), let contents = try? SecretBytes.read(contentsOfFile: path, limit: 64 << 10) else { return [:] }
        return contents.withUnsafeBytes { (try? JSONCodec.decode([String: ZoneStatusRecord].self, from: Array($0))) ?? [:] }
    }

    static func save(_ records: [String: ZoneStatusRecord], in directory: VaultDirectory) throws {
        try AtomicFile.write(try JSONCodec.encode(records, pretty: true) + [0x0a], to: directory.path + "/" + fileName)
    }
}
