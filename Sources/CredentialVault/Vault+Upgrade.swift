import Membership
import Replication
import SecretTrack
import Sodium

/// `credctl remote upgrade` (docs/devices.md, "Upgrading a remote of format 1"): the remote's
/// format-1 objects, wrapped under a sync passphrase anyone who copied the remote could guess
/// offline, give way to a roster this device starts, with keys that are all new.
extension Vault {
    /// Upgrades the format-1 remote this vault is bound to. The old sync passphrase proves the
    /// remote is this vault's (its keys must open with it and hold this vault's key); then: a
    /// genesis with this device and a new recovery key (delivered first), epoch 1 with new
    /// transport and vault keys (this device's secrets sealed again under the new vault key, as
    /// new versions), the format-1 zone objects removed, `vault.json` replaced, and every record
    /// of this device queued again for the next sync. Other devices join again (approval or the
    /// recovery key). A crash part way is finished by running it again. Needs the vault unlocked.
    public func upgradeRemote(syncPassphrase: SecretBytes, deliver: RecoveryKeyDelivery? = nil) throws(VaultError) -> RecoveryKey {
        try VaultError.wrapping {
            try directory.withExclusiveLock {
                guard let previous = try RemoteBinding.load(from: directory) else { throw VaultError(.noRemote, "This vault has no remote to upgrade.") }
                guard secrets.isUnlocked else { throw VaultError(.locked, "Upgrading the remote needs the vault unlocked.", hint: "Unlock it with its passphrase or key file.") }
                let address = try previous.address()
                let remote = try previous.remote()
                let existing = try remote.get(VaultDocument.objectName)
                if let genesis = try remote.get(RosterEntry.objectName(0)) {
                    // Upgraded already — by this device (a run cut short goes on) or by another (join it).
                    guard case .genesis(_, let creator, _, _)? = try? RosterObjects.entry(of: genesis).change, creator.id == deviceID,
                          existing.map({ (try? VaultDocument.decode($0)) == nil }) ?? true else {
                        throw VaultError(.conflict, "The remote in \(address.description) was upgraded already.",
                                         hint: "Join it again: credctl remote set \(address.location) (approved by a device of the vault, or with --recovery-key-file)")
                    }
                    try remote.delete(RecoveryAttestation.objectName(0))
                    try remote.delete(RosterEntry.objectName(0))
                } else if let existing {
                    let keys: RemoteVaultKeys
                    do {
                        keys = try RemoteVaultKeys.open(existing, passphrase: syncPassphrase)
                    } catch let error as ReplicationError where error.code == .authenticationFailed {
                        throw VaultError(.wrongKey, "The sync passphrase does not open the remote's keys.", hint: "Use the sync passphrase this vault's remote was made with.")
                    }
                    guard keys.vaultID == vaultID, keys.vaultKey == (try secrets.vaultKeyForPublishing()) else {
                        throw VaultError(.conflict, "The remote in \(address.description) holds another vault than this one; it is not upgraded from here.")
                    }
                }
                // New keys for epoch 1: the old ones were open to offline guessing.
                try secrets.adoptVault(id: vaultID, vaultKey: try .random(count: SealedBox.keyCount))
                // Its objects go before the new `vault.json` names the roster, the old one last.
                let format1 = try remote.list(prefix: "zones/") + (existing == nil ? [] : [VaultDocument.objectName])
                let (binding, recoveryKey) = try createRemote(address, remote: remote, name: nil, conditionalWrites: previous.conditionalWrites ?? true,
                                                              requeue: true, deliver: deliver, clearing: format1)
                try finishRebind(binding, remote: remote)
                return recoveryKey
            }
        }
    }
}
