/// What applying a batch changed.
public struct ApplyReport: Sendable, Equatable {
    /// Envelopes that won and were written.
    public var applied = 0
    /// Envelopes that lost to (or equalled) what this device already had.
    public var ignored = 0
    /// Envelopes kept in quarantine (rejected, unknown kind or format, invalid payload).
    public var quarantined = 0

    public init(applied: Int = 0, ignored: Int = 0, quarantined: Int = 0) {
        self.applied = applied
        self.ignored = ignored
        self.quarantined = quarantined
    }
}
