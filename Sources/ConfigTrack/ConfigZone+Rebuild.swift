import Replication
import SQLite

extension ConfigZone {
    /// After a revocation race (this device took in what a revoked device wrote past its
    /// cutoff): every record and tombstone with no pending local change goes, and the zone is
    /// read again from the remote as a joining device reads it. What this device has not sent
    /// stays and is sent; what it sent comes back from its own batches or a snapshot.
    public func startRebuild() throws {
        try store.write("rebuild the config zone") { db in
            let pending = "SELECT record_name FROM replication_journal"
            for type in Self.kinds.values {
                try db.run("DELETE FROM \(type.table) WHERE ? || id NOT IN (\(pending))", ["\(type.kind)/"])
            }
            try db.run("DELETE FROM config_tombstones WHERE record_name NOT IN (\(pending))")
            try SyncTables.restartForRebuild(db, zone: zone, ownDevice: deviceID)
        }
    }
}
