import Replication
import SQLite

extension SecretZone {
    /// After an explicit rebind: cursors reset and every syncable item — and the newest
    /// deletion marker of each reference — queued again. Device-only items stay local.
    public func requeueAll(nextSequence: UInt64) throws {
        try store.write("requeue secrets") { db in
            try SyncTables.restart(db, zone: zone, nextSequence: nextSequence)
            // Objects on the old remote prove nothing about the new one.
            try db.run("UPDATE migration_copies SET sequence = NULL")
            for item in try db.query(SecretStore.selectItem + " WHERE availability = 'syncable'", [], { SecretStore.item($0) }) {
                try Journal.record(db, JournalEntry(recordName: item.reference, kind: SecretStore.itemKind, version: item.version, deleted: false, incarnation: item.incarnation))
            }
            let markers = try db.query("""
                SELECT reference, incarnation, version_clock, version_device FROM deletion_markers m
                WHERE local_only = 0 AND incarnation = (SELECT max(incarnation) FROM deletion_markers WHERE reference = m.reference AND local_only = 0)
                  AND NOT EXISTS (SELECT 1 FROM secret_items i WHERE i.reference = m.reference)
                """) { JournalEntry(recordName: $0.text(0) ?? "", kind: SecretStore.itemKind, version: RecordVersion(clock: $0.uint64(2), device: $0.text(3) ?? ""),
                                    deleted: true, incarnation: $0.int64(1)) }
            for entry in markers { try Journal.record(db, entry) }
        }
    }
}
