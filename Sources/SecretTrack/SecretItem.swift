import Replication

/// What is known about a stored secret without opening it.
public struct SecretItem: Sendable, Equatable {
    /// The reference key the config track names it by.
    public let reference: String
    public let availability: Availability
    /// Pinned items stay device-only even when sync is on.
    public let pinned: Bool
    /// Starts at 1 and grows each time the reference is set again after a deletion.
    public let incarnation: Int64
    public let version: RecordVersion
}
