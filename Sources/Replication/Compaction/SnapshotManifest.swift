/// What a snapshot covers and how to read it back: the writer's merged state of one zone, as
/// of the cursor vector it had applied, split into parts that are published first.
public struct SnapshotManifest: Sendable, Equatable {
    /// One published part: how many envelopes it holds and the BLAKE2b digest of its sealed
    /// bytes, so a part replaced or cut short is never taken for the real one.
    public struct Part: Sendable, Equatable {
        public let count: Int
        public let digest: [UInt8]
    }

    public let zone: String
    public let device: String
    public let number: UInt64
    /// The writer's wall clock when it took the snapshot, in milliseconds.
    public let createdAt: UInt64
    /// Last sequence covered per writer device, the snapshot writer's own included: every
    /// batch at or below it is merged in.
    public let cursors: [String: UInt64]
    public let parts: [Part]

    public var name: CompactionObjectName { CompactionObjectName(device: device, number: number, kind: .snapshotManifest) }

    /// How much history the snapshot covers, to pick the newest of several.
    public var coverage: UInt64 { cursors.values.reduce(0, &+) }

    /// Whether this snapshot covers at least as much of every device as `other`.
    public func dominates(_ other: SnapshotManifest) -> Bool {
        other.cursors.allSatisfy { (cursors[$0.key] ?? 0) >= $0.value }
    }
}
