import Replication
import SQLite
import Sodium

extension SecretStore {
    /// Seals an adopted vault key under this device's key, bound to the store and the vault.
    static let adoptedKeyPurpose = SealPurpose(tag: 5, label: "credvault/v1/adopted-vault-key")

    /// Makes this store part of another vault: a vault that already holds secrets binding to a
    /// remote created by another vault takes that vault's id and key.
    ///
    /// In one transaction, every syncable body is opened with the current vault key, sealed again
    /// under `vaultKey` with a new version and journaled (the same path as the every-launch
    /// migration), and the new key is kept sealed under this device's key. The key slots stay as
    /// they are, so every configured unlock method keeps working. A crash leaves either the old
    /// vault whole or the new one whole. Device-only bodies are untouched. A body that no longer
    /// opens stays as it was (it could not be read before either). Needs the store unlocked.
    /// Returns how many bodies were sealed again.
    @discardableResult
    public func adoptVault(id newVaultID: String, vaultKey newKey: SecretBytes, epochKeys: [UInt32: SecretBytes] = [:]) throws -> Int {
        let keys = try unlockedKeys()
        let adopted = VaultKeys(deviceKey: keys.deviceKey, vaultKey: newKey, epochKeys: epochKeys)
        let resealed = try write("adopt the vault \(newVaultID)") { db -> Int in
            let items = try db.query(Self.selectItem + " WHERE availability = 'syncable'") { (Self.item($0), $0.blob(6) ?? []) }
            var count = 0
            for (item, column) in items {
                guard let sealed = try sealedBody(column, of: item),
                      let body = try? BodySeal.open(sealed, item: item, keys: keys) else { continue }
                let version = try LocalClock.tick(db, device: deviceID, skew: clockSkew.withLock { $0 })
                let moved = SecretItem(reference: item.reference, availability: .syncable, pinned: item.pinned, incarnation: item.incarnation, version: version)
                let written = try Self.writeContext(db, item.reference, version: version)
                try db.run("UPDATE secret_items SET version_clock = ?, version_device = ?, sealed_body = ?, context = ? WHERE reference = ?",
                           [version.clock, version.device,
                            try placeBody(try BodySeal.seal(body, item: moved, keys: adopted), of: moved, db),
                            Self.stored(written, version: version), item.reference])
                try Journal.record(db, JournalEntry(recordName: item.reference, kind: Self.itemKind, version: version, deleted: false, incarnation: item.incarnation))
                count += 1
            }
            // Kept losing versions sealed under the old vault key move too, or they could never be restored.
            let kept = try db.query("SELECT id, reference, incarnation, version_clock, version_device, sealed_body FROM secret_conflicts WHERE availability = 'syncable'") {
                ($0.int64(0), SecretItem(reference: $0.text(1) ?? "", availability: .syncable, pinned: false, incarnation: $0.int64(2),
                                         version: RecordVersion(clock: $0.uint64(3), device: $0.text(4) ?? "")), $0.blob(5) ?? [])
            }
            for (id, item, sealed) in kept {
                guard let body = try? BodySeal.open(sealed, item: item, keys: keys) else { continue }
                try db.run("UPDATE secret_conflicts SET sealed_body = ? WHERE id = ?", [try BodySeal.seal(body, item: item, keys: adopted), id])
            }
            let wrapped = try SealedBox.seal(newKey, key: keys.deviceKey, purpose: Self.adoptedKeyPurpose, context: adoptedKeyContext(newVaultID))
            try db.run("INSERT OR REPLACE INTO secret_meta (key, value) VALUES ('vault_id', ?), ('adopted_vault_key', ?)",
                       [newVaultID, Base64.encode(wrapped)])
            try db.run("DELETE FROM secret_epoch_keys")
            for (epoch, key) in epochKeys where epoch > 1 { try storeEpochKey(db, epoch: epoch, key: key, deviceKey: keys.deviceKey, vaultID: newVaultID) }
            return count
        }
        self.keys.withLock { $0 = adopted }
        vaultIdentity.withLock { $0 = newVaultID }
        return resealed
    }

    /// The keys a slot opened, with the adopted vault key in place of the slot's own, if this
    /// store adopted another vault.
    func applyingAdoption(to opened: VaultKeys) throws -> VaultKeys {
        guard let (vaultID, text) = try read("read the adopted vault key", { db in
            try db.queryFirst("""
                SELECT id.value, key.value FROM secret_meta AS id, secret_meta AS key
                WHERE id.key = 'vault_id' AND key.key = 'adopted_vault_key'
                """) { ($0.text(0) ?? "", $0.text(1) ?? "") }
        }) else { return opened }
        guard let wrapped = Base64.decode(text),
              let key = try? SealedBox.open(wrapped, key: opened.deviceKey, purpose: Self.adoptedKeyPurpose, context: adoptedKeyContext(vaultID))
        else { throw SecretError(.authenticationFailed, "The adopted vault key of this vault is damaged.") }
        return VaultKeys(deviceKey: opened.deviceKey, vaultKey: key)
    }

    private func adoptedKeyContext(_ vaultID: String) -> [UInt8] { Array("\(storeID)\u{0}\(vaultID)".utf8) }
}
