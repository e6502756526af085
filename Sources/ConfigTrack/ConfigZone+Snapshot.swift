import Replication
import SQLite

extension ConfigZone {
    /// Every record of every kind and every tombstone, as envelopes, with the cursors they
    /// cover — nil while local edits wait to be sent. In record-name order: a joining device
    /// then inserts each table's keys in order, touching each index page once instead of
    /// jumping around a large index at random.
    public func snapshotState(_ emit: (Envelope) throws -> Void) throws -> [String: UInt64]? {
        try store.read("read the config state for a snapshot") { db in
            guard let frame = try SyncTables.snapshotFrame(db, zone: zone, ownDevice: deviceID) else { return nil }
            for type in Self.kinds.values.sorted(by: { $0.kind < $1.kind }) {
                try StoredRecord.forEach(db, type) { id, stored in
                    try emit(stored.envelope(type, recordName: type.kind + "/" + id))
                }
            }
            // Each tombstone after its removal, as a batch carries them (read in the same pass).
            try db.forEach("""
                SELECT t.record_name, t.kind, t.version_clock, t.version_device, t.incarnation, r.context FROM config_tombstones t
                LEFT JOIN replication_removals r ON r.record_name = t.record_name AND r.incarnation = t.incarnation
                    AND r.version_clock = t.version_clock AND r.version_device = t.version_device
                ORDER BY t.record_name
                """) { row in
                let (recordName, version, incarnation) = (row.text(0) ?? "", RecordVersion(clock: row.uint64(2), device: row.text(3) ?? ""), row.int64(4))
                if let context = RemovalLog.decodedContext(row.blob(5)) {
                    try emit(RemovalLog.envelope(recordName: recordName, incarnation: incarnation, version: version, context: context))
                }
                try emit(tombstone(recordName, kind: row.text(1) ?? "", version: version, incarnation: incarnation))
            }
            for envelope in frame.held { try emit(envelope) }
            return frame.cursors
        }
    }

    /// Config records need no reading back.
    public func firstSequenceStillNeeded() throws -> UInt64? { nil }
}
