import Replication
import SQLite

extension SecretZone {
    /// After a revocation race (`ZoneStore.startRebuild`): every syncable item and every
    /// deletion marker that travels, with no pending local change, goes; device-only items, kept
    /// conflicts and the epoch keys stay. A body kept in the keyring that no item names any more
    /// is collected like any other orphan; the item comes back from the remote.
    public func startRebuild() throws {
        try store.write("rebuild the secrets zone") { db in
            let pending = "SELECT record_name FROM replication_journal"
            try db.run("DELETE FROM secret_items WHERE availability = 'syncable' AND reference NOT IN (\(pending))")
            try db.run("DELETE FROM deletion_markers WHERE local_only = 0 AND reference NOT IN (\(pending))")
            try SyncTables.restartForRebuild(db, zone: zone, ownDevice: deviceID)
        }
    }
}
