import Glibc

/// When a device compacts a zone: how often it writes a snapshot, publishes its cursors and
/// collects what every device is done with, and after how long a silent device stops holding
/// collection back.
public struct CompactionPolicy: Sendable, Equatable {
    /// A snapshot is written once the remote holds this many batches no snapshot covers yet.
    public var snapshotAfterBatches = 64
    /// A snapshot replaces reading batches when it spares at least this many of them (or when a
    /// batch it covers is gone).
    public var snapshotSparesAtLeast = 16
    /// At most this many envelopes, and about this many bytes, per snapshot part.
    public var partEnvelopes = 5_000
    public var partBytes = 8 << 20
    /// Changed cursors are published at most this often (seconds); unchanged ones this often,
    /// so others can tell a quiet device from a retired one.
    public var publishInterval: UInt64 = 15 * 60
    public var heartbeatInterval: UInt64 = 24 * 3_600
    /// A device that published nothing for this long (seconds) is treated as retired: batches
    /// only it has not read may be collected. If it comes back it starts again from a snapshot,
    /// with its own unsent changes kept, so nothing is lost.
    public var retireAfter: UInt64 = 90 * 86_400
    /// Publish, snapshot and collect in this run whatever the intervals and thresholds say
    /// (`credctl sync --compact`).
    public var immediate = false

    public init() {}

    /// The policy `credctl` uses: the defaults, with the retirement period taken from
    /// `CREDCTL_RETIRE_AFTER_SECONDS` when that is set to a whole number.
    public static func fromEnvironment(immediate: Bool = false) -> CompactionPolicy {
        var policy = CompactionPolicy()
        policy.immediate = immediate
        if let text = getenv("CREDCTL_RETIRE_AFTER_SECONDS").map({ String(cString: $0) }), let seconds = UInt64(text) {
            // Capped at a century, so the arithmetic in milliseconds cannot overflow.
            policy.retireAfter = min(seconds, 100 * 365 * 86_400)
        }
        return policy
    }
}
