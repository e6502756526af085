/// Latency percentiles of one measured loop, in microseconds.
///
/// Percentiles use the nearest-rank method on the sorted samples, so every reported value is a
/// latency that was actually observed (no interpolation that could hide a tail).
struct LatencySummary: Codable {
    let samples: Int
    let minMicroseconds: Double
    let p50Microseconds: Double
    let p90Microseconds: Double
    let p99Microseconds: Double
    let p999Microseconds: Double
    let maxMicroseconds: Double
    let meanMicroseconds: Double
    /// Operations per second over the loop's wall time (timer overhead included).
    let opsPerSecond: Double

    init(nanoseconds: [UInt64], wallNanoseconds: UInt64) {
        let sorted = nanoseconds.sorted()
        func rank(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let index = Swift.min(sorted.count - 1, Swift.max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
            return Double(sorted[index]) / 1_000
        }
        samples = sorted.count
        minMicroseconds = Double(sorted.first ?? 0) / 1_000
        p50Microseconds = rank(0.50)
        p90Microseconds = rank(0.90)
        p99Microseconds = rank(0.99)
        p999Microseconds = rank(0.999)
        maxMicroseconds = Double(sorted.last ?? 0) / 1_000
        meanMicroseconds = sorted.isEmpty ? 0 : Double(sorted.reduce(0, +)) / Double(sorted.count) / 1_000
        opsPerSecond = wallNanoseconds == 0 ? 0 : Double(sorted.count) / (Double(wallNanoseconds) / 1e9)
    }
}
