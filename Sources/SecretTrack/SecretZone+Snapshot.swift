import Replication
import SQLite

extension SecretZone {
    /// Every syncable item's body and every deletion marker that still decides a reference, as
    /// envelopes, with the cursors they cover — nil while local changes wait to be sent, or when
    /// a body kept in the desktop keyring cannot be read (the snapshot would miss it).
    /// Device-only items and their markers never appear. Items come in reference order (a
    /// joining device inserts them in key order), then the markers.
    public func snapshotState() throws -> ZoneSnapshotState? {
        try store.read("read the secrets state for a snapshot") { db in
            guard let frame = try SyncTables.snapshotFrame(db, zone: zone, ownDevice: deviceID) else { return nil }
            // The newest marker of each reference decides it unless a later life is present.
            var markers: [String: DeletionMarker] = [:]
            for marker in try db.query("SELECT reference, incarnation, version_clock, version_device FROM deletion_markers WHERE local_only = 0", [], {
                DeletionMarker(reference: $0.text(0) ?? "", incarnation: $0.int64(1), version: RecordVersion(clock: $0.uint64(2), device: $0.text(3) ?? ""))
            }) where (markers[marker.reference]?.incarnation ?? Int64.min) < marker.incarnation {
                markers[marker.reference] = marker
            }
            var envelopes: [Envelope] = []
            for (item, column) in try db.query(SecretStore.selectItem + " WHERE availability = 'syncable' ORDER BY reference", [], { (SecretStore.item($0), $0.blob(6) ?? []) }) {
                if let marker = markers[item.reference], marker.incarnation >= item.incarnation { continue }
                guard let sealed = try store.sealedBody(column, of: item) else { return nil }
                markers[item.reference] = nil
                envelopes.append(Self.envelope(item, sealed: sealed))
            }
            for marker in markers.values.sorted(by: { $0.reference < $1.reference }) {
                envelopes.append(Self.tombstone(marker.reference, incarnation: marker.incarnation, version: marker.version))
            }
            return ZoneSnapshotState(envelopes: envelopes + frame.held, cursors: frame.cursors)
        }
    }
}
