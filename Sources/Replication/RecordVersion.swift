/// The version of one record: a hybrid logical clock reading plus the device that wrote it.
///
/// Versions are totally ordered: by clock, then by device id, so two devices comparing the same
/// pair always agree on which is newer.
public struct RecordVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch in the high 48 bits, a logical counter in the low 16.
    public let clock: UInt64
    /// The writer's device id (canonical lowercase UUID text).
    public let device: String

    public init(clock: UInt64, device: String) {
        self.clock = clock
        self.device = device
    }

    /// The wall-clock milliseconds this version was stamped with.
    public var milliseconds: UInt64 { clock >> HybridLogicalClock.counterBits }

    public static func < (lhs: RecordVersion, rhs: RecordVersion) -> Bool {
        (lhs.clock, lhs.device) < (rhs.clock, rhs.device)
    }

    public var description: String { "\(clock)@\(device)" }
}
