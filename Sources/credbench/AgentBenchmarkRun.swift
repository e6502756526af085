import CredentialVault

/// `credbench agent [--hosts N] [--memory-sizes N,N] [--runs N] [--passphrase-runs N] [--output FILE]`:
/// the reads compared and the agent's memory, printed as tables and written as JSON.
enum AgentBenchmarkRun {
    static func main(_ arguments: [String]) throws {
        guard let options = try AgentBenchOptions.parse(arguments) else { return Console.print(AgentBenchOptions.usage) }
        let machine = MachineInfo.current()
        let (reads, memory) = try AgentBenchmark(options: options).run()
        let report = AgentBenchmarkReport(machine: machine, options: options, kdf: KDFParameters.recommended().canonicalText, reads: reads, memory: memory)
        lines(report).forEach(Console.print)
        try report.writeJSON(to: options.output)
        Console.print("results written to \(options.output)")
    }

    private static func lines(_ report: AgentBenchmarkReport) -> [String] {
        let machine = report.machine
        let options = report.options
        var out = ["credbench agent — \(machine.date) — \(machine.cpuModel), \(machine.cores) cores, \(machine.architecture), Linux \(machine.kernel)",
                   "credctl read cred://host/…/password, whole release process (stdout to /dev/null), vault of \(options.hosts) hosts; rounds interleaved after one warm-up each; passphrase \(report.kdf)",
                   "vaults built in \(AgentBenchmark.buildBase), copied to \(machine.temporaryDirectory) and measured there", ""]
        out += ResultsTable.render(["way", "runs", "min ms", "p50 ms", "p90 ms", "max ms", "p50 / agent", "client peak MiB"], report.reads.map { read in
            [read.way, String(read.latency.samples), (read.latency.minMicroseconds / 1_000).fixed(2), (read.latency.p50Microseconds / 1_000).fixed(2),
             (read.latency.p90Microseconds / 1_000).fixed(2), (read.latency.maxMicroseconds / 1_000).fixed(2), read.medianOverAgent.fixed(1) + "x",
             read.clientPeakMiB.fixed(1)]
        })
        out += ["", "agent memory (MiB, VmRSS / VmHWM of the agent, idle): unlocked with the passphrase, after \(options.memoryReads) reads through it, after credctl lock"]
        out += ResultsTable.render(["hosts", "build s", "unlock ms", "unlocked", "after reads", "locked"], report.memory.map { row in
            [String(row.hosts), row.buildSeconds.fixed(1), row.unlockMilliseconds.fixed(0)]
                + [row.afterUnlock, row.afterReads, row.locked].map { $0.residentMiB.fixed(1) + " / " + $0.peakMiB.fixed(1) }
        })
        return out
    }
}
