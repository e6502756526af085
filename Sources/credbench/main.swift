import Glibc

// credbench: populate vaults of several sizes through the public facade, measure resolve
// latency on a reopened handle, compare SealedBox with bare libsodium, and record it all.
do {
    // Subcommands, each parsing its own options; no subcommand: the resolve benchmark.
    let subcommands: [String: ([String]) throws -> Void] = [
        "agent": AgentBenchmarkRun.main, "migrate": MigrationBenchmark.main, "revoke": RevocationBenchmark.main, "sync": SyncBenchmarkRun.main,
        "cli-vaults": CLIVaultsRun.main, "cli-report": CLIReportRun.main,
    ]
    if let name = CommandLine.arguments.dropFirst().first, let subcommand = subcommands[name] {
        try subcommand(Array(CommandLine.arguments.dropFirst(2)))
        exit(0)
    }
    guard let options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst())) else {
        Console.print(BenchOptions.usage)
        exit(0)
    }
    let machine = MachineInfo.current()
    var results: [SizeResult] = []
    for size in options.sizes {
        Console.progress("building a vault of \(size) hosts…")
        let result = try VaultBenchmark(size: size, iterations: options.iterations, warmupIterations: options.warmupIterations).run()
        Console.progress("  built in \(result.buildSeconds.fixed(1)) s (\(result.insertsPerSecond.fixed(0)) hosts/s); resolve p50 \(result.resolve.p50Microseconds.fixed(1)) µs, p99 \(result.resolve.p99Microseconds.fixed(1)) µs")
        results.append(result)
    }
    Console.progress("measuring seal/open…")
    let seal = try SealBenchmark().run()
    let report = BenchmarkReport(machine: machine, options: options, results: results, seal: seal)
    ResultsTable(report: report).lines().forEach(Console.print)
    try report.writeJSON(to: options.outputPath)
    Console.print("results written to \(options.outputPath)")
} catch {
    Console.progress("credbench: error: \(error)")
    exit(1)
}
