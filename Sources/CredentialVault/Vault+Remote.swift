import ConfigTrack
import FoundationEssentials
import Replication
import SecretTrack
import Sodium

extension Vault {
    /// Binds this vault to a directory remote. The first device creates the remote (its
    /// `vault.json` with this vault's keys wrapped under the sync passphrase, which needs the
    /// vault unlocked); a device of the same vault binds to it with the sync passphrase.
    /// A vault binding to a remote that another vault created joins that vault (needs it
    /// unlocked): it takes the remote's vault id and key, its syncable secrets are sealed again
    /// under that key, and all its records are sent like any other change — new versions that
    /// never overwrite newer remote records. Returns true when this call created the remote.
    ///
    /// `merge` rebinds explicitly after the remote was reset (its `vault.json` is gone): the keys
    /// are published again, cursors reset, and every surviving local record queued again, so the
    /// remote receives this device's whole state; sync then resumes.
    @discardableResult
    public func setRemote(directory remotePath: String, syncPassphrase: SecretBytes, kdf: KDFParameters = .recommended(),
                          merge: Bool = false) throws(VaultError) -> Bool {
        try setRemote(.directory(VaultDirectory(path: remotePath).path), syncPassphrase: syncPassphrase, kdf: kdf, merge: merge)
    }

    /// `setRemote` for any kind of remote (a directory, an S3 bucket).
    @discardableResult
    public func setRemote(_ address: RemoteAddress, syncPassphrase: SecretBytes, kdf: KDFParameters = .recommended(),
                          merge: Bool = false) throws(VaultError) -> Bool {
        // Under the lock sync holds: no sync runs between the key change and the new binding.
        try VaultError.wrapping { try directory.withExclusiveLock { try setRemoteLocked(address, syncPassphrase: syncPassphrase, kdf: kdf, merge: merge) } }
    }

    private func setRemoteLocked(_ address: RemoteAddress, syncPassphrase: SecretBytes, kdf: KDFParameters, merge: Bool) throws -> Bool {
        try VaultError.wrapping {
            let previous = try RemoteBinding.load(from: directory)
            let location = address.location
            let conditionalWrites = try address.prepare()
            let remote = try address.open(conditionalWrites: conditionalWrites)
            var existing = try remote.get(RemoteVaultKeys.objectName)
            // A bound vault whose remote lost its keys (reset) or moved is rebound only on request.
            let changed = try previous != nil && (existing == nil || previous?.address() != address)
            if changed && !merge { throw Self.rebindNeeded(address.description) }
            var created = false
            if existing == nil {
                let keys = RemoteVaultKeys(vaultID: vaultID, vaultKey: try secrets.vaultKeyForPublishing(), transportKey: try .random(count: SealedBox.keyCount))
                if try remote.createOnly(RemoteVaultKeys.objectName, bytes: try keys.encoded(passphrase: syncPassphrase, kdf: kdf)) == .created { created = true }
                existing = try remote.get(RemoteVaultKeys.objectName)
            }
            let keys = try Self.openRemoteKeys(existing ?? [], syncPassphrase: syncPassphrase)
            // The remote holds another vault: this one joins it, bringing its records along —
            // at once for a vault that never synced, only on request for one whose remote was
            // replaced under it.
            let adopting = keys.vaultID != vaultID
            if adopting && previous != nil && !merge { throw Self.rebindNeeded(address.description) }
            if adopting {
                guard secrets.isUnlocked else {
                    throw VaultError(.locked, "Binding to the remote of another vault seals this vault's secrets again under that vault's key, which needs the vault unlocked.",
                                     hint: "Unlock it with its passphrase or key file.")
                }
                try secrets.adoptVault(id: keys.vaultID, vaultKey: keys.vaultKey)
            }
            let transportKey = keys.transportKey.withUnsafeBytes { Base64.encode($0) }
            let rebinding = adopting || changed || (previous != nil && previous?.keysDigest != RemoteBinding.digest(existing ?? []))
            if rebinding && !adopting && !merge { throw Self.rebindNeeded(address.description) }
            let binding = RemoteBinding(address: address, vaultID: keys.vaultID, transportKey: transportKey, keysDigest: RemoteBinding.digest(existing ?? []),
                                        requeuePending: rebinding ? true : nil, conditionalWrites: conditionalWrites)
            try binding.save(in: directory)
            // Secrets stored before the remote was bound become syncable now (and on every unlock).
            if secrets.isUnlocked { try secrets.migrateDeviceOnlyItems() }
            if rebinding { try finishRebind(binding, remote: remote) }
            return created
        }
    }

    /// Creates a new vault on this device that joins the vault at `remotePath`: it adopts the
    /// remote's vault id and vault key (unwrapped with the sync passphrase) and binds to it.
    public static func join(at path: String, remoteDirectory remotePath: String, syncPassphrase: SecretBytes, key: UnlockKey,
                            kdf: KDFParameters = .recommended(), backend: SecretBackend = .sqlite) throws(VaultError) -> Vault {
        try join(at: path, remote: .directory(VaultDirectory(path: remotePath).path), syncPassphrase: syncPassphrase, key: key, kdf: kdf, backend: backend)
    }

    /// `join` for any kind of remote.
    public static func join(at path: String, remote address: RemoteAddress, syncPassphrase: SecretBytes, key: UnlockKey,
                            kdf: KDFParameters = .recommended(), backend: SecretBackend = .sqlite) throws(VaultError) -> Vault {
        try join(at: path, remote: address, syncPassphrase: syncPassphrase, key: key, kdf: kdf, backend: backend, deviceID: nil)
    }

    /// `join` with this device's id chosen by the caller (see `create(at:key:kdf:backend:deviceID:)`).
    static func join(at path: String, remote address: RemoteAddress, syncPassphrase: SecretBytes, key: UnlockKey,
                     kdf: KDFParameters, backend: SecretBackend, deviceID: String?) throws(VaultError) -> Vault {
        let directory = VaultDirectory(path: path)
        return try VaultError.wrapping {
            // Joining never creates a directory; a bucket is probed (credentials, create-only writes).
            var conditionalWrites = true
            if case .s3 = address { conditionalWrites = try address.prepare() }
            let remote = try address.open(conditionalWrites: conditionalWrites)
            guard let bytes = try remote.get(RemoteVaultKeys.objectName) else {
                throw VaultError(.notFound, "There is no vault to join at \(address.description) (no vault.json).",
                                 hint: "Create it from the first device with credctl remote set \(address.location).")
            }
            let keys = try openRemoteKeys(bytes, syncPassphrase: syncPassphrase)
            try directory.prepare()
            let vault = try directory.withExclusiveLock { try createLocked(directory, key: key, kdf: kdf, backend: backend, adopting: keys, deviceID: deviceID) }
            try RemoteBinding(address: address, vaultID: keys.vaultID, transportKey: keys.transportKey.withUnsafeBytes { Base64.encode($0) },
                              keysDigest: RemoteBinding.digest(bytes), conditionalWrites: conditionalWrites).save(in: directory)
            return vault
        }
    }

    /// The second half of a rebind: cursors reset and every surviving record queued again, so
    /// the remote receives this device's whole state; then the binding says it is done.
    func finishRebind(_ binding: RemoteBinding, remote: any Remote) throws {
        try ConfigZone(store: config).requeueAll(nextSequence: try SyncTables.nextSequence(on: remote, zone: "config", device: deviceID))
        try SecretZone(store: secrets).requeueAll(nextSequence: try SyncTables.nextSequence(on: remote, zone: "secrets", device: deviceID))
        var done = binding
        done.requeuePending = nil
        try done.save(in: directory)
    }

    private static func rebindNeeded(_ location: String) -> VaultError {
        VaultError(.conflict, "This vault is bound to a remote that has since changed (reset, replaced or moved).",
                   hint: "Rebind explicitly with: credctl remote set \(location) --merge")
    }

    static func openRemoteKeys(_ bytes: [UInt8], syncPassphrase: SecretBytes) throws -> RemoteVaultKeys {
        do {
            return try RemoteVaultKeys.open(bytes, passphrase: syncPassphrase)
        } catch let error as ReplicationError where error.code == .authenticationFailed {
            throw VaultError(.wrongKey, "The sync passphrase does not open the remote's keys.", hint: "Use the sync passphrase chosen on the first device.")
        }
    }

    /// Whether this vault syncs with a remote (new secrets are then syncable at once).
    public var hasRemote: Bool { (try? RemoteBinding.load(from: directory)) != nil }

    /// Where new secrets go: syncable once a remote is bound, device-only before.
    var newSecretAvailability: Availability { hasRemote ? .syncable : .deviceOnly }
}
