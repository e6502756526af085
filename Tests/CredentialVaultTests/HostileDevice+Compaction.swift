import Foundation
import SQLite
import Sodium
@testable import ConfigTrack
@testable import Replication
@testable import SecretTrack

/// The hostile participant's compaction objects, and the check that nothing it forged reached
/// an honest replica.
extension HostileDevice {
    /// Published cursors and snapshots under a made-up device, sealed properly: times of 0 and
    /// `UInt64.max`, cursor values past any device's (which make the object unreadable) or
    /// claiming everything read, snapshot parts of invalid records, parts missing or altered.
    ///
    /// A snapshot never claims an honest device's batches in range: without signatures that
    /// would be a forged history, which only the roster can refuse. Published cursors may:
    /// collection takes the least of every live device's, so a claim can only hold it back.
    func compactionObjects(zone: String) throws {
        let ghost = pick(ghosts)
        let number = 1 + generator.next(4)
        let time = pick([UInt64.max, 0, UInt64(Int64.max), HybridLogicalClock.wallMilliseconds()])
        let huge = [UInt64.max, Batch.maximumSequence + 1, UInt64(bitPattern: -1)]
        var cursors: [String: UInt64] = [:]
        for device in ghosts where generator.next(2) == 0 { cursors[device] = pick([Batch.maximumSequence, 1, 0] + huge) }
        let directory = CompactionObjectName(device: ghost, number: number, kind: .cursors)
        if generator.next(2) == 0 {
            for device in honest where generator.next(2) == 0 { cursors[device] = pick([Batch.maximumSequence, 0] + huge) }
            let published = PublishedCursors(zone: zone, device: ghost, number: number, writtenAt: time, cursors: cursors)
            try write(directory.objectName(zone: zone), try CompactionCodec.seal(published, with: seal(for: ghost)))
            return
        }
        if generator.next(3) == 0 { cursors[pick(honest)] = pick(huge) }
        var parts: [SnapshotManifest.Part] = []
        for index in 0..<Int(generator.next(3)) {
            var envelopes: [Envelope] = []
            for _ in 0..<(1 + generator.next(3)) {
                guard let envelope = try? BatchCodec.decode(try invalidHost(zone)) else { continue }
                envelopes.append(envelope)
            }
            let sealed = try CompactionCodec.sealPart(envelopes[...], zone: zone, device: ghost, number: number, part: index, with: seal(for: ghost))
            let name = CompactionObjectName(device: ghost, number: number, kind: .snapshotPart(index)).objectName(zone: zone)
            switch generator.next(6) {
            case 0: break  // never arrives
            case 1: try write(name, try garbage())
            default: try write(name, sealed)
            }
            let count = generator.next(6) == 0 ? Int(UInt32.max) : envelopes.count
            parts.append(SnapshotManifest.Part(count: count, digest: GenericHash.hash(sealed)))
        }
        let manifest = SnapshotManifest(zone: zone, device: ghost, number: number, createdAt: time, cursors: cursors, parts: parts)
        try write(manifest.name.objectName(zone: zone), try CompactionCodec.seal(manifest, with: seal(for: ghost)))
    }

    /// Rows of a replica (its two stores) that came from this participant: stamped by a forged writer,
    /// or naming a record id it made up. Empty when none got through.
    func forgeries(config store: ConfigStore, secrets secretStore: SecretStore) throws -> [String] {
        var rows: [String] = []
        let config = try Connection(path: store.queue.path)
        for table in ["hosts", "host_groups", "identities", "port_forwards", "devices"] {
            rows += try config.query("SELECT id, version_device FROM \(table)") { "\(table) \($0.text(0) ?? "") \($0.text(1) ?? "")" }
        }
        rows += try config.query("SELECT record_name, version_device FROM config_tombstones") { "tombstone \($0.text(0) ?? "") \($0.text(1) ?? "")" }
        let secrets = try Connection(path: secretStore.queue.path)
        rows += try secrets.query("SELECT reference, version_device FROM secret_items") { "item \($0.text(0) ?? "") \($0.text(1) ?? "")" }
        rows += try secrets.query("SELECT reference, version_device FROM deletion_markers") { "marker \($0.text(0) ?? "") \($0.text(1) ?? "")" }
        return rows.filter { row in row.contains(Self.writerMark) || forgedIDs.contains { row.contains($0) } }
    }
}
