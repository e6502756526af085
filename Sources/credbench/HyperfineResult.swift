import FoundationEssentials

/// One command as hyperfine's `--export-json` records it (seconds throughout); the fields
/// `make bench-cli` reports, and the samples, kept for later analysis.
struct HyperfineResult: Codable {
    /// The `--command-name` the script gave it.
    let command: String
    let mean: Double
    /// Absent when hyperfine ran the command once.
    let stddev: Double?
    let median: Double
    /// CPU time in user and kernel mode, mean per run.
    let user: Double
    let system: Double
    let min: Double
    let max: Double
    let times: [Double]

    /// One result from the runs of several: every sample counts once, so the mean, median,
    /// spread and CPU times are those of all runs together (times sorted to find the median).
    static func pooled(_ results: [HyperfineResult]) -> HyperfineResult? {
        guard let first = results.first, results.count > 1 else { return results.first }
        let times = results.flatMap(\.times)
        guard !times.isEmpty else { return nil }
        let sorted = times.sorted()
        let count = Double(times.count)
        let mean = times.reduce(0, +) / count
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        let variance = times.count > 1 ? times.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (count - 1) : nil
        // CPU times are means per run: weighted by each result's number of runs.
        func weighted(_ value: KeyPath<HyperfineResult, Double>) -> Double {
            results.reduce(0) { $0 + $1[keyPath: value] * Double($1.times.count) } / count
        }
        return HyperfineResult(command: first.command, mean: mean, stddev: variance.map { $0.squareRoot() }, median: median,
                               user: weighted(\.user), system: weighted(\.system), min: sorted[0], max: sorted[sorted.count - 1], times: times)
    }

    /// The results in one `--export-json` file.
    static func load(_ path: String) throws -> [HyperfineResult] {
        struct Export: Decodable { let results: [HyperfineResult] }
        guard let text = MachineInfo.readFile(path) else { throw BenchError("Unable to read \(path).") }
        return try JSONDecoder().decode(Export.self, from: Data(text.utf8)).results
    }
}
