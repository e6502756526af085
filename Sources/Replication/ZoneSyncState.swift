/// The replication bookkeeping of one zone on this device.
public struct ZoneSyncState: Sendable, Equatable {
    /// Last sequence applied, per writer device.
    public let cursors: [String: UInt64]
    /// The sequence this device's next upload will use.
    public let nextSequence: UInt64

    public init(cursors: [String: UInt64], nextSequence: UInt64) {
        self.cursors = cursors
        self.nextSequence = nextSequence
    }
}
