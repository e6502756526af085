import Replication
import SQLite

extension ConfigZone {
    /// After an explicit rebind: cursors reset and every surviving record — and every
    /// tombstone — queued again, so the new remote receives this device's whole state.
    public func requeueAll(nextSequence: UInt64) throws {
        try store.write("requeue config records") { db in
            try SyncTables.restart(db, zone: zone, nextSequence: nextSequence)
            for type in Self.kinds.values {
                let rows = try db.query("SELECT id, version_clock, version_device, incarnation FROM \(type.table)") { ($0.text(0) ?? "", $0.uint64(1), $0.text(2) ?? "", $0.int64(3)) }
                for (id, clock, device, incarnation) in rows {
                    try Journal.record(db, JournalEntry(recordName: "\(type.kind)/\(id)", kind: type.kind, version: RecordVersion(clock: clock, device: device),
                                                        deleted: false, incarnation: incarnation))
                }
            }
            let tombstones = try db.query("SELECT record_name, kind, version_clock, version_device, incarnation FROM config_tombstones") {
                JournalEntry(recordName: $0.text(0) ?? "", kind: $0.text(1) ?? "", version: RecordVersion(clock: $0.uint64(2), device: $0.text(3) ?? ""),
                             deleted: true, incarnation: $0.int64(4))
            }
            for entry in tombstones { try Journal.record(db, entry) }
        }
    }
}
