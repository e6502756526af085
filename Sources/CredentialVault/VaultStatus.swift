import SecretTrack

/// An honest summary of a vault on this device; gathering it needs no key.
public struct VaultStatus: Sendable {
    /// The replication state of one zone. Until a remote is configured every zone is `localOnly`.
    public enum ZoneState: String, Sendable {
        case localOnly
    }

    public struct Zone: Sendable {
        public let name: String
        public let state: ZoneState
        /// Local edits waiting to be uploaded.
        public let pendingChanges: Int
        public let quarantined: Int
    }

    public let path: String
    public let vaultID: String
    public let deviceID: String
    public let unlocked: Bool
    /// How this vault unlocks on this device (`passphrase`, `keyfile`).
    public let unlockMethods: [String]
    /// The Argon2id parameters of the passphrase slot, when the vault has one.
    public let passphraseKDF: KDFParameters?
    public let hosts: Int
    public let groups: Int
    public let identities: Int
    public let forwards: Int
    public let deviceOnlySecrets: Int
    public let syncableSecrets: Int
    public let deletionMarkers: Int
    public let zones: [Zone]
}

extension Vault {
    public func status() throws(VaultError) -> VaultStatus {
        try VaultError.wrapping {
            let configCounts = try config.counts()
            let secretCounts = try secrets.counts()
            return VaultStatus(
                path: directory.path, vaultID: vaultID, deviceID: deviceID, unlocked: isUnlocked,
                unlockMethods: try secrets.providers().map(\.rawValue), passphraseKDF: try secrets.passphraseParameters(),
                hosts: configCounts.hosts, groups: configCounts.groups, identities: configCounts.identities, forwards: configCounts.forwards,
                deviceOnlySecrets: secretCounts.deviceOnly, syncableSecrets: secretCounts.syncable, deletionMarkers: secretCounts.deletionMarkers,
                zones: [
                    VaultStatus.Zone(name: "config", state: .localOnly, pendingChanges: configCounts.pendingChanges, quarantined: configCounts.quarantined),
                    VaultStatus.Zone(name: "secrets", state: .localOnly, pendingChanges: secretCounts.pendingChanges, quarantined: secretCounts.quarantined),
                ])
        }
    }
}
