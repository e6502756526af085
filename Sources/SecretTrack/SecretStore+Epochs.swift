import Replication
import SQLite
import Sodium

/// The vault keys of epochs after the first (docs/devices.md, "Epochs on data"): each kept
/// sealed under this device's key, loaded at unlock, and the every-launch reseal that moves
/// syncable bodies to the newest epoch this device holds.
extension SecretStore {
    static let epochKeyPurpose = SealPurpose(tag: 12, label: "credvault/v2/epoch-vault-key")

    static let epochKeysMigration = Migration("secrets: vault keys of later epochs") { db in
        try db.execute("CREATE TABLE secret_epoch_keys (epoch INTEGER PRIMARY KEY CHECK (epoch >= 2), sealed BLOB NOT NULL)")
    }

    private static func epochKeyContext(storeID: String, vaultID: String, epoch: UInt32) -> [UInt8] { Array("\(storeID)\u{0}\(vaultID)\u{0}\(epoch)".utf8) }

    func storeEpochKey(_ db: Connection, epoch: UInt32, key: SecretBytes, deviceKey: SecretBytes, vaultID: String) throws {
        let sealed = try SealedBox.seal(key, key: deviceKey, purpose: Self.epochKeyPurpose, context: Self.epochKeyContext(storeID: storeID, vaultID: vaultID, epoch: epoch))
        try db.run("INSERT OR REPLACE INTO secret_epoch_keys (epoch, sealed) VALUES (?, ?)", [Int64(epoch), sealed])
    }

    /// The keys a slot opened, with the vault keys of later epochs added.
    func addingEpochKeys(to opened: VaultKeys) throws -> VaultKeys {
        var keys = opened
        let vaultID = vaultIdentity.withLock { $0 }
        for (epoch, sealed) in try read("read the epoch keys", { db in try db.query("SELECT epoch, sealed FROM secret_epoch_keys") { (UInt32($0.int64(0)), $0.blob(1) ?? []) } }) {
            guard let key = try? SealedBox.open(sealed, key: opened.deviceKey, purpose: Self.epochKeyPurpose,
                                                context: Self.epochKeyContext(storeID: storeID, vaultID: vaultID, epoch: epoch)) else {
                throw SecretError(.authenticationFailed, "The vault key of epoch \(epoch) kept on this device is damaged.")
            }
            keys.epochKeys[epoch] = key
        }
        return keys
    }

    /// The epochs whose vault keys this device holds (1 always, with the store unlocked).
    public func heldEpochs() throws -> Set<UInt32> { Set([1] + Array(try unlockedKeys().epochKeys.keys)) }

    /// Epoch 1's vault key, or the key of `epoch`, for boxing it to another device. Needs the store unlocked.
    public func vaultKey(epoch: UInt32) throws -> SecretBytes? { try unlockedKeys().vaultKey(epoch: epoch) }

    /// Keeps the vault key of a later `epoch` (sealed under the device key); new syncable bodies
    /// are sealed in the newest one from now on. Needs the store unlocked.
    public func addEpochKey(_ epoch: UInt32, key: SecretBytes) throws {
        guard epoch >= 2 else { return }
        let keys = try unlockedKeys()
        try write("keep the vault key of epoch \(epoch)") { db in
            try storeEpochKey(db, epoch: epoch, key: key, deviceKey: keys.deviceKey, vaultID: vaultIdentity.withLock { $0 })
        }
        self.keys.withLock { $0?.epochKeys[epoch] = key }
    }

    /// `resealToNewestEpoch` when the newest epoch held is not the one the last complete reseal
    /// reached (so every unlock costs one read once it is done).
    public func resealIfEpochChanged() throws {
        let newest = try unlockedKeys().newestEpoch
        let done = try read("read the resealed epoch") { db in try db.queryFirst("SELECT value FROM secret_meta WHERE key = 'resealed_epoch'") { $0.text(0) } } ?? nil
        guard done != String(newest) else { return }
        try resealToNewestEpoch()
        try write("note the resealed epoch") { db in try db.run("INSERT OR REPLACE INTO secret_meta (key, value) VALUES ('resealed_epoch', ?)", [String(newest)]) }
    }

    /// Seals every syncable body not in the newest epoch this device holds again in it: same
    /// version and write context (it is not an edit), 500 bodies per transaction, in order of
    /// reference, so it is idempotent, resumable after a crash, and a no-op once done. The next
    /// snapshot carries the resealed bodies, and compaction then collects the batches that held
    /// the old ones. Returns how many bodies were sealed again. Needs the store unlocked.
    @discardableResult
    ///
    /// With the keyring backend nothing is resealed: a body kept outside is addressed by its
    /// version, so sealing it again in place could not be made crash-safe (a kill between the
    /// keyring write and the commit would leave the row naming bytes no longer there). Its
    /// bodies stay in the epoch they were written in until they are next written.
    public func resealToNewestEpoch() throws -> Int {
        guard !usesExternalBodies else { return 0 }
        let keys = try unlockedKeys()
        let newest = keys.newestEpoch
        var count = 0
        var after = ""
        while true {
            // Read and written in one transaction: no other process changes a body in between.
            let (sealed, last) = try write("seal bodies in epoch \(newest)") { db -> (Int, String?) in
                let rows = try db.query(Self.selectItem + " WHERE availability = 'syncable' AND reference > ? ORDER BY reference LIMIT 500", [after]) {
                    (Self.item($0), $0.blob(6) ?? [])
                }
                var sealed = 0
                for (item, column) in rows {
                    // A body sealed before epochs (unpadded) is sealed again too, even in epoch 1.
                    guard let body = try sealedBody(column, of: item), BodySeal.epoch(of: body) != newest,
                          let opened = try? BodySeal.open(body, item: item, keys: keys) else { continue }
                    try db.run("UPDATE secret_items SET sealed_body = ? WHERE reference = ?",
                               [try placeBody(try BodySeal.seal(opened, item: item, keys: keys), of: item, db), item.reference])
                    sealed += 1
                }
                return (sealed, rows.last?.0.reference)
            }
            count += sealed
            guard let last else { return count }
            after = last
        }
    }
}

extension SecretStore {
    /// Every reference a body of which went through the remote as far as this device knows:
    /// syncable secrets, deleted ones (their markers) and kept losing versions — what a device
    /// that held the vault's keys could have read (`device revoke`'s exposure report). Sorted.
    public func syncedReferences() throws -> [String] {
        try read("list the synced references") { db in
            try db.query("""
                SELECT reference FROM secret_items WHERE availability = 'syncable'
                UNION SELECT reference FROM deletion_markers
                UNION SELECT reference FROM secret_conflicts WHERE availability = 'syncable'
                ORDER BY reference
                """) { $0.text(0) ?? "" }
        }
    }
}
