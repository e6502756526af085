import Glibc

/// A point in time on the clock that keeps counting while the machine sleeps (`CLOCK_BOOTTIME`).
public struct Deadline: Sendable {
    public let at: Int64

    public init(seconds: Int) { at = Self.nowMilliseconds + Int64(seconds) * 1_000 }

    /// Milliseconds left, or nil once passed.
    public var millisecondsLeft: Int64? {
        let left = at - Self.nowMilliseconds
        return left > 0 ? left : nil
    }

    public static var nowMilliseconds: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
    }
}
