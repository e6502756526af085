import Replication
import SQLite

/// `ZoneStore.undoRevoked` and `republishRevoked` for secret references. Device-only items are
/// never touched.
extension SecretZone {
    public func undoRevoked(_ device: String, versions: [String: Set<RecordVersion>]) throws {
        try store.write("undo what revoked \(device) wrote") { db in
            let pending = Set(try db.query("SELECT record_name FROM replication_journal") { $0.text(0) ?? "" })
            for (reference, brought) in versions where !pending.contains(reference) {
                var undone: Set<RecordVersion> = []
                if let item = try db.queryFirst(SecretStore.selectItem + " WHERE reference = ? AND availability = 'syncable'", [reference], { SecretStore.item($0) }),
                   brought.contains(item.version), try !SyncTables.relayed(db, zone: zone, recordName: reference, version: item.version) {
                    try db.run("DELETE FROM secret_items WHERE reference = ?", [reference])
                    undone.insert(item.version)
                }
                for version in brought where try !SyncTables.relayed(db, zone: zone, recordName: reference, version: version) {
                    try db.run("DELETE FROM deletion_markers WHERE reference = ? AND local_only = 0 AND version_clock = ? AND version_device = ?",
                               [reference, version.clock, version.device])
                    if db.changes > 0 { undone.insert(version) }
                }
                if !undone.isEmpty, try !reinstateOwnRemoval(db, reference, beatenBy: undone) {
                    try store.reinstateConflict(db, reference, beatenBy: undone)
                }
            }
            try SyncTables.undid(db, zone: zone, device: device)
        }
    }

    /// This device's own deletion of `reference`, not sent yet, that a version just undone
    /// replaced (`ReplacedRemovals`) stands again and is sent — unless a later life stands or a
    /// deletion of its life or a later one remains. Returns whether one did.
    private func reinstateOwnRemoval(_ db: Connection, _ reference: String, beatenBy undone: Set<RecordVersion>) throws -> Bool {
        guard let own = try ReplacedRemovals.take(db, recordName: reference, beatenBy: undone),
              try db.queryFirst("SELECT 1 FROM secret_items WHERE reference = ? AND incarnation > ?", [reference, own.incarnation], { _ in true }) == nil,
              try db.queryFirst("SELECT 1 FROM deletion_markers WHERE reference = ? AND incarnation >= ? AND local_only = 0", [reference, own.incarnation], { _ in true }) == nil
        else { return false }
        try db.run("INSERT OR REPLACE INTO deletion_markers (reference, incarnation, version_clock, version_device, local_only, context) VALUES (?, ?, ?, ?, 0, ?)",
                   [reference, own.incarnation, own.version.clock, own.version.device, SecretStore.stored(own.context, version: own.version)])
        try db.run("DELETE FROM secret_items WHERE reference = ? AND incarnation <= ?", [reference, own.incarnation])
        try ReplacedRemovals.restore(db, recordName: reference, kind: SecretStore.itemKind, own)
        return true
    }

    public func republishRevoked(_ device: String, records: [String], inspectedThrough: UInt64) throws {
        try store.write("send again what revoked \(device) touched") { db in
            for reference in records {
                if let item = try db.queryFirst(SecretStore.selectItem + " WHERE reference = ? AND availability = 'syncable'", [reference], { SecretStore.item($0) }) {
                    try Journal.record(db, JournalEntry(recordName: reference, kind: SecretStore.itemKind, version: item.version, deleted: false,
                                                        incarnation: item.incarnation))
                } else if let (incarnation, clock, writer) = try db.queryFirst("""
                    SELECT incarnation, version_clock, version_device FROM deletion_markers WHERE reference = ? AND local_only = 0
                    ORDER BY incarnation DESC LIMIT 1
                    """, [reference], { ($0.int64(0), $0.uint64(1), $0.text(2) ?? "") }) {
                    try Journal.record(db, JournalEntry(recordName: reference, kind: SecretStore.itemKind, version: RecordVersion(clock: clock, device: writer),
                                                        deleted: true, incarnation: incarnation))
                }
            }
            try SyncTables.inspected(db, zone: zone, device: device, through: inspectedThrough)
        }
    }
}
