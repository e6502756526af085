import Replication
import SQLite

extension SecretZone {
    /// Every syncable item's body and every deletion marker that still decides a reference, as
    /// envelopes, with the cursors they cover — nil while local changes wait to be sent, or when
    /// a body kept in the desktop keyring cannot be read (the snapshot would miss it).
    /// Device-only items and their markers never appear. Items come in reference order (a
    /// joining device inserts them in key order), then the markers.
    public func snapshotState(_ emit: (Envelope) throws -> Void) throws -> [String: UInt64]? {
        try store.read("read the secrets state for a snapshot") { db in
            guard let frame = try SyncTables.snapshotFrame(db, zone: zone, ownDevice: deviceID) else { return nil }
            // The newest marker of each reference decides it unless a later life is present.
            var markers: [String: DeletionMarker] = [:]
            try db.forEach("SELECT reference, incarnation, version_clock, version_device FROM deletion_markers WHERE local_only = 0") { row in
                let marker = DeletionMarker(reference: row.text(0) ?? "", incarnation: row.int64(1), version: RecordVersion(clock: row.uint64(2), device: row.text(3) ?? ""))
                if (markers[marker.reference]?.incarnation ?? Int64.min) < marker.incarnation { markers[marker.reference] = marker }
            }
            var missing = false
            try db.forEach(SecretStore.selectItem + " WHERE availability = 'syncable' ORDER BY reference") { row in
                let item = SecretStore.item(row)
                if let marker = markers[item.reference], marker.incarnation >= item.incarnation { return }
                guard !missing, let sealed = try store.sealedBody(row.blob(6) ?? [], of: item) else {
                    missing = true
                    return
                }
                markers[item.reference] = nil
                try emit(Self.envelope(item, sealed: sealed, context: SecretStore.itemContext(row)))
            }
            guard !missing else { return nil }
            // Each tombstone after its removal, as a batch carries them.
            for marker in markers.values.sorted(by: { $0.reference < $1.reference }) {
                if let removal = try RemovalLog.envelope(db, recordName: marker.reference, incarnation: marker.incarnation, version: marker.version) {
                    try emit(removal)
                }
                try emit(Self.tombstone(marker.reference, incarnation: marker.incarnation, version: marker.version))
            }
            for envelope in frame.held { try emit(envelope) }
            return frame.cursors
        }
    }
}
