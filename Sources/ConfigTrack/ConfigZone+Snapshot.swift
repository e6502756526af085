import Replication
import SQLite

extension ConfigZone {
    /// Every record of every kind and every tombstone, as envelopes, with the cursors they
    /// cover — nil while local edits wait to be sent. In record-name order: a joining device
    /// then inserts each table's keys in order, touching each index page once instead of
    /// jumping around a large index at random.
    public func snapshotState() throws -> ZoneSnapshotState? {
        try store.read("read the config state for a snapshot") { db in
            guard let frame = try SyncTables.snapshotFrame(db, zone: zone, ownDevice: deviceID) else { return nil }
            var envelopes: [Envelope] = []
            for type in Self.kinds.values.sorted(by: { $0.kind < $1.kind }) {
                let count = Int32(type.columns.count)
                let sql = "SELECT id, " + (type.columns + ["version_clock", "version_device"]).joined(separator: ", ") + " FROM \(type.table) ORDER BY id"
                envelopes += try db.query(sql) { row in
                    Envelope(recordName: type.kind + "/" + (row.text(0) ?? ""), kind: type.kind, formatVersion: ConfigPayload.formatVersion,
                             version: RecordVersion(clock: row.uint64(count + 1), device: row.text(count + 2) ?? ""), deleted: false, incarnation: 0,
                             payload: ConfigPayload.encode((1...count).map { row.value($0) }))
                }
            }
            envelopes += try db.query("SELECT record_name, kind, version_clock, version_device FROM config_tombstones ORDER BY record_name") { row in
                Envelope(recordName: row.text(0) ?? "", kind: row.text(1) ?? "", formatVersion: ConfigPayload.formatVersion,
                         version: RecordVersion(clock: row.uint64(2), device: row.text(3) ?? ""), deleted: true, incarnation: 0, payload: [])
            }
            return ZoneSnapshotState(envelopes: envelopes + frame.held, cursors: frame.cursors)
        }
    }

    /// Config records need no reading back.
    public func firstSequenceStillNeeded() throws -> UInt64? { nil }
}
