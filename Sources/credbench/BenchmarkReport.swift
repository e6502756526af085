/// The whole run, as written to the JSON results file.
///
/// One self-describing document (machine, options, every number) so results from different
/// machines or commits can be compared later without the console output.
struct BenchmarkReport: Codable {
    /// The latency goal checked at the largest size: resolve p99 at or under this.
    static let targetP99Microseconds = 50.0

    let machine: MachineInfo
    let sizes: [Int]
    let iterations: Int
    let warmupIterations: Int
    let kdf: String
    let results: [SizeResult]
    let seal: [SealResult]
    let targetP99Microseconds: Double
    /// Whether steady-state resolve p99 met the target at the largest size measured.
    let targetMet: Bool

    init(machine: MachineInfo, options: BenchOptions, results: [SizeResult], seal: [SealResult]) {
        self.machine = machine
        sizes = options.sizes
        iterations = options.iterations
        warmupIterations = options.warmupIterations
        kdf = "insecureForTesting (Argon2id minimum limits; key-file vaults do not run it on unlock)"
        self.results = results
        self.seal = seal
        targetP99Microseconds = Self.targetP99Microseconds
        let largest = results.max { $0.hosts < $1.hosts }
        targetMet = (largest?.steadyResolve.p99Microseconds ?? .infinity) <= Self.targetP99Microseconds
    }
}
