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
                    try emit(Envelope(recordName: type.kind + "/" + id, kind: type.kind, formatVersion: FieldPayload.formatVersion,
                                      version: stored.version, deleted: false, incarnation: stored.incarnation, payload: stored.payload(type)))
                }
            }
            // Each tombstone after its removal, as a batch carries them.
            try db.forEach("SELECT record_name, kind, version_clock, version_device, incarnation FROM config_tombstones ORDER BY record_name") { row in
                let (recordName, version, incarnation) = (row.text(0) ?? "", RecordVersion(clock: row.uint64(2), device: row.text(3) ?? ""), row.int64(4))
                if let removal = try RemovalLog.envelope(db, recordName: recordName, incarnation: incarnation, version: version) { try emit(removal) }
                try emit(tombstone(recordName, kind: row.text(1) ?? "", version: version, incarnation: incarnation))
            }
            for envelope in frame.held { try emit(envelope) }
            return frame.cursors
        }
    }

    /// Config records need no reading back.
    public func firstSequenceStillNeeded() throws -> UInt64? { nil }
}
