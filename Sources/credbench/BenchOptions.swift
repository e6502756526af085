/// The command line of `credbench`, validated before anything runs.
///
/// Defaults reproduce the reference run (1k, 10k and 100k hosts, 20,000 resolves each) so two
/// runs on two machines compare without anyone remembering flags.
struct BenchOptions {
    var sizes = [1_000, 10_000, 100_000]
    var outputPath = "bench-results/credbench.json"
    var iterations = 20_000
    /// Resolves run before measuring, so page cache, statement cache and allocator are warm.
    var warmupIterations = 1_000

    static let usage = """
        USAGE: credbench [--sizes N,N,...] [--output FILE] [--iterations N] [--warmup N]

        OPTIONS:
          --sizes N,N,...   Vault sizes in hosts (default 1000,10000,100000)
          --output FILE     Where to write the JSON results (default bench-results/credbench.json)
          --iterations N    Measured resolves per size (default 20000)
          --warmup N        Unmeasured resolves first (default 1000; a pass over every host
                            measures the steady state of a long-running process)
          --help            Show this help
        """

    /// Parses `arguments` (without the program name). Returns nil when help was asked for.
    static func parse(_ arguments: [String]) throws -> BenchOptions? {
        guard let pairs = try BenchArguments.pairs(arguments) else { return nil }
        var options = BenchOptions()
        for (flag, value) in pairs {
            switch flag {
            case "--sizes":
                let sizes = value.split(separator: ",").map { Int($0) }
                guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) > 0 }) else {
                    throw BenchError("--sizes takes positive whole numbers separated by commas, not '\(value)'.")
                }
                options.sizes = sizes.compactMap { $0 }
            case "--output":
                guard !value.isEmpty else { throw BenchError("--output needs a file path.") }
                options.outputPath = value
            case "--iterations":
                guard let count = Int(value), count > 0 else { throw BenchError("--iterations takes a positive whole number, not '\(value)'.") }
                options.iterations = count
            case "--warmup":
                guard let count = Int(value), count >= 0 else { throw BenchError("--warmup takes a whole number, not '\(value)'.") }
                options.warmupIterations = count
            default:
                throw BenchError("Unknown option '\(flag)'.")
            }
        }
        return options
    }
}
