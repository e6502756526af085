/// A target from the issue, checked on one run's medians: `name`'s median over `over`'s, at
/// most or at least `bound`.
struct CLITarget: Codable {
    let name: String
    let over: String
    let atMost: Bool
    let bound: Double
    /// Both nil when either row was not measured.
    let ratio: Double?
    let met: Bool?

    init(name: String, over: String, atMost: Bool, bound: Double, ratio: Double?) {
        self.name = name
        self.over = over
        self.atMost = atMost
        self.bound = bound
        self.ratio = ratio
        met = ratio.map { atMost ? $0 <= bound : $0 >= bound }
    }

    var line: String {
        let verdict = met.map { $0 ? "MET" : "NOT MET" } ?? "not measured"
        return "target: \(name) \(atMost ? "≤" : "≥") \(bound.fixed(1))× \(over): \(ratio.map { $0.fixed(2) + "×" } ?? "–") — \(verdict)"
    }
}
