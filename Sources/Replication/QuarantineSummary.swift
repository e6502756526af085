/// What status says of a zone's quarantine beyond its count: the objects that cannot be read
/// (each names its device and sequence), and how many entries were dropped to stay within
/// `SyncTables.quarantineLimit`.
public struct QuarantineSummary: Sendable, Equatable {
    /// Batch objects quarantined whole, by name (`zones/<zone>/<device>/<sequence>.batch`).
    public let unreadableObjects: [String]
    public let dropped: UInt64

    public init(unreadableObjects: [String], dropped: UInt64) {
        self.unreadableObjects = unreadableObjects
        self.dropped = dropped
    }
}
