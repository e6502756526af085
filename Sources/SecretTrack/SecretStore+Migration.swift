import Replication
import SQLite
import Sodium

extension SecretStore {
    /// Makes every device-only item that is not pinned syncable: opened with the device key,
    /// sealed again under the vault key with a new version, and journaled — each in one
    /// transaction, so an item is at every instant either still device-only or syncable with its
    /// upload intent, never lost. Scans only the (normally empty) index of such items, so running
    /// it on every unlock is cheap. Returns how many items were migrated. Needs the store unlocked.
    @discardableResult
    public func migrateDeviceOnlyItems() throws -> Int {
        let keys = try unlockedKeys()
        let references = try read("list items awaiting migration") { db in
            try db.query("SELECT reference FROM secret_items INDEXED BY secret_items_local_unpinned WHERE availability = 'deviceOnly' AND pinned = 0") { $0.text(0) ?? "" }
        }
        var migrated = 0
        for reference in references {
            let done = try write("migrate \(reference)") { db -> Bool in
                guard case (.present(let item), let sealed?) = try state(db, reference), item.availability == .deviceOnly, !item.pinned else { return false }
                let body: SecretBytes
                do {
                    body = try SealedBox.open(sealed, key: keys.deviceKey, purpose: Self.bodyPurpose, context: Self.context(item))
                } catch {
                    // A body that does not open stays where it is; read reports it.
                    return false
                }
                let version = try LocalClock.tick(db, device: deviceID, skew: clockSkew.withLock { $0 })
                let syncable = SecretItem(reference: reference, availability: .syncable, pinned: false, incarnation: item.incarnation, version: version)
                let resealed = try SealedBox.seal(body, key: keys.vaultKey, purpose: Self.bodyPurpose, context: Self.context(syncable))
                try db.run("UPDATE secret_items SET availability = 'syncable', version_clock = ?, version_device = ?, sealed_body = ? WHERE reference = ?",
                           [version.clock, version.device, resealed, reference])
                try Journal.record(db, JournalEntry(recordName: reference, kind: Self.itemKind, version: version, deleted: false, incarnation: item.incarnation))
                return true
            }
            if done { migrated += 1 }
        }
        return migrated
    }
}
