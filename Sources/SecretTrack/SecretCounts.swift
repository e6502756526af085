/// Item counts for status displays; needs no key.
public struct SecretCounts: Sendable, Equatable {
    public let deviceOnly: Int
    public let syncable: Int
    /// Device-only items that are not pinned: what the every-launch migration will pick up.
    public let awaitingMigration: Int
    /// Migrated items whose device-only copy is kept until the remote is verified to hold them.
    public let awaitingVerification: Int
    public let deletionMarkers: Int
    public let pendingChanges: Int
    public let quarantined: Int
    /// Losing versions kept for `conflicts restore`.
    public let conflicts: Int
}
