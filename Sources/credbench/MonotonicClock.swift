import Glibc

/// Nanosecond timestamps from `CLOCK_MONOTONIC`.
///
/// The operations we time take a few microseconds, so the clock must be cheap and immune to
/// wall-clock steps: `clock_gettime(CLOCK_MONOTONIC)` is a vDSO call of a few tens of
/// nanoseconds and its readings subtract as plain integers. The corresponding C function is
/// `clock_gettime`.
enum MonotonicClock {
    /// Nanoseconds since an arbitrary, fixed point in the past.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Seconds elapsed since `start` (a value of `now()`).
    static func seconds(since start: UInt64) -> Double {
        Double(now() - start) / 1e9
    }
}
