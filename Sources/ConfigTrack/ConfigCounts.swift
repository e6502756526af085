/// Record counts for status displays.
public struct ConfigCounts: Sendable, Equatable {
    public let hosts: Int
    public let groups: Int
    public let identities: Int
    public let forwards: Int
    /// Local edits not yet uploaded.
    public let pendingChanges: Int
    /// Received records held back because they failed validation.
    public let quarantined: Int
    /// Field values written here that lost a merge, kept for `conflicts restore`.
    public let conflicts: Int
}
