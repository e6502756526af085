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

    /// The results in one `--export-json` file.
    static func load(_ path: String) throws -> [HyperfineResult] {
        struct Export: Decodable { let results: [HyperfineResult] }
        guard let text = MachineInfo.readFile(path) else { throw BenchError("Unable to read \(path).") }
        return try JSONDecoder().decode(Export.self, from: Data(text.utf8)).results
    }
}
