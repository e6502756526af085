import Replication
import SQLite

/// `ZoneStore.undoRevoked` and `republishRevoked` for secret references. Device-only items are
/// never touched.
extension SecretZone {
    public func undoRevoked(_ device: String, versions: [String: Set<RecordVersion>]) throws {
        try store.write("undo what revoked \(device) wrote") { db in
            let pending = Set(try db.query("SELECT record_name FROM replication_journal") { $0.text(0) ?? "" })
            for (reference, brought) in versions where !pending.contains(reference) {
                if let item = try db.queryFirst(SecretStore.selectItem + " WHERE reference = ? AND availability = 'syncable'", [reference], { SecretStore.item($0) }),
                   brought.contains(item.version), try !SyncTables.relayed(db, zone: zone, recordName: reference, version: item.version) {
                    try db.run("DELETE FROM secret_items WHERE reference = ?", [reference])
                }
                for version in brought where try !SyncTables.relayed(db, zone: zone, recordName: reference, version: version) {
                    try db.run("DELETE FROM deletion_markers WHERE reference = ? AND local_only = 0 AND version_clock = ? AND version_device = ?",
                               [reference, version.clock, version.device])
                }
            }
            try SyncTables.undid(db, zone: zone)
        }
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
