import Glibc

/// Hybrid logical clock arithmetic.
///
/// A reading packs wall-clock milliseconds (high 48 bits) and a counter (low 16 bits). The next
/// reading is the later of "now" and "one past the last reading seen", so clocks never run
/// backwards and an edit made after seeing a skewed device's change still orders after it.
public enum HybridLogicalClock {
    public static let counterBits: UInt64 = 16

    /// The reading that follows `last` at wall time `nowMilliseconds`.
    public static func next(after last: UInt64, nowMilliseconds: UInt64) -> UInt64 {
        max(nowMilliseconds << counterBits, last == .max ? last : last + 1)
    }

    /// Wall-clock milliseconds since the Unix epoch.
    public static func wallMilliseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        // A clock set before 1970 reads as 1970; the logical counter still keeps order.
        guard spec.tv_sec >= 0 else { return 0 }
        return UInt64(spec.tv_sec) * 1_000 + UInt64(spec.tv_nsec) / 1_000_000
    }
}
