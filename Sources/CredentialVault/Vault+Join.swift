import Membership
import Replication

extension Vault {
    /// Creates a new vault on this device that joins the vault on `address` (`setRemote` then
    /// joins it: with the recovery key at once, else by approval). A join waiting for approval or
    /// confirmation leaves the new vault with its request noted (`join.json`); calling `join` again
    /// with the same remote resumes it instead of refusing the directory.
    public static func join(at path: String, remote address: RemoteAddress, join: JoinCredentials, key: UnlockKey,
                            kdf: KDFParameters = .recommended(), backend: SecretBackend = .sqlite) throws(VaultError) -> (vault: Vault, outcome: BindOutcome) {
        try Self.join(at: path, remote: address, join: join, key: key, kdf: kdf, backend: backend, deviceID: nil)
    }

    /// `join` with this device's id chosen by the caller (see `create(at:key:kdf:backend:deviceID:)`).
    static func join(at path: String, remote address: RemoteAddress, join: JoinCredentials, key: UnlockKey, kdf: KDFParameters,
                     backend: SecretBackend, deviceID: String?) throws(VaultError) -> (vault: Vault, outcome: BindOutcome) {
        let directory = VaultDirectory(path: path)
        return try VaultError.wrapping {
            let vault: Vault
            if let pending = try PendingJoin.load(from: directory), try pending.address() == address {
                vault = try open(at: path)
                try vault.unlock(key)
            } else {
                // Joining never creates a directory remote; a bucket is probed (credentials, create-only writes).
                let conditionalWrites = try address.prepare()
                guard let document = try Self.document(on: try address.open(conditionalWrites: conditionalWrites)) else {
                    throw VaultError(.notFound, "There is no vault to join at \(address.description) (no vault.json).",
                                     hint: "Create it from the first device with credctl remote set \(address.location).")
                }
                vault = try create(at: path, key: key, kdf: kdf, backend: backend, deviceID: deviceID)
                try PendingJoin.save(RemoteBinding(address: address, vaultID: document.vaultID, genesis: document.genesis, transportKeys: [:],
                                                   conditionalWrites: conditionalWrites), in: directory)
            }
            return (vault, try vault.setRemote(address, join: join))
        }
    }

    /// Whether `address` holds a vault (its `vault.json`); one of an older format is refused.
    public static func remoteHoldsVault(_ address: RemoteAddress) throws(VaultError) -> Bool {
        try VaultError.wrapping {
            if case .directory(let path) = address, !VaultDirectory.exists(path) { return false }
            // A bucket is probed first: credentials refused, or no such bucket, are said as such.
            let conditionalWrites = address.isDirectory ? true : try address.prepare()
            return try document(on: try address.open(conditionalWrites: conditionalWrites)) != nil
        }
    }

    /// The remote this vault asked to join and waits on, if any.
    public var pendingJoin: RemoteAddress? { try? PendingJoin.load(from: directory)?.address() }
}
