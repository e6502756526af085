/// One row of `make bench-cli`: a measured command, or one left out with the reason.
struct CLIRow: Codable {
    let name: String
    let result: HyperfineResult?
    /// Why the command was not measured (a tool missing from the distribution).
    let skipped: String?
    /// Its median over the static Swift floor's, and over `credctl read` on the largest vault's.
    var medianOverFloor: Double? = nil
    var medianOverReference: Double? = nil
}
