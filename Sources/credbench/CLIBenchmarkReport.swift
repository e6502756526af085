/// The JSON written by `credbench cli-report` (`bench-results/cli.json`).
struct CLIBenchmarkReport: Codable {
    let machine: MachineInfo
    /// The rows the ratio columns divide by.
    let floor: String
    let reference: String
    /// How the stores were built and what that cost, as the script recorded it.
    let notes: [String]
    let rows: [CLIRow]
    let targets: [CLITarget]
}
