import CredentialVault
import Glibc

/// What `credctl agent` buys, measured on whole release `credctl` processes: reading one password
/// through an unlocked agent, with a key file, and with a passphrase; and what the agent holds
/// resident, unlocked and locked, as the vault grows.
///
/// Two runtime directories (each 0700, private to the run) keep the ways apart: commands with
/// the agent's find its socket; commands with the other find none, so a key-file or passphrase
/// read unlocks by itself, as it does for a user who runs no agent. (A client asks an unlocked
/// agent before it uses a key it was given, so the agent must be out of reach, not just unused.)
struct AgentBenchmark {
    let options: AgentBenchOptions

    func run() throws -> (reads: [AgentReadResult], memory: [AgentMemoryResult]) {
        let directory = try TemporaryDirectory(prefix: "agentbench")
        let base = directory.path
        let environment = ["PATH=/usr/bin:/bin", "HOME=\(base)", "XDG_CONFIG_HOME=\(base)/config", "XDG_DATA_HOME=\(base)/data"]
        for name in ["run-agent", "run-none"] where mkdir(base + "/" + name, 0o700) != 0 {
            throw BenchError("Unable to create \(base)/\(name) (errno \(errno)).")
        }
        let building = try TemporaryDirectory(prefix: "agentbench-build", in: Self.buildBase)
        let vault = try AgentBenchVault(in: base, building: building.path)
        let withAgent = try Credctl(vault: vault.path, environment: environment + ["XDG_RUNTIME_DIR=\(base)/run-agent"])
        let withoutAgent = try Credctl(vault: vault.path, environment: environment + ["XDG_RUNTIME_DIR=\(base)/run-none"])
        var reads: [AgentReadResult] = []
        var memory: [AgentMemoryResult] = []
        for size in Set(options.memorySizes + [options.hosts]).sorted() {
            Console.progress("agent benchmark: \(size) hosts…")
            try vault.grow(to: size)
            if size == options.hosts { reads = try compareReads(vault, withAgent: withAgent, withoutAgent: withoutAgent, statusFile: base + "/status.json") }
            if options.memorySizes.contains(size) { memory.append(try measureMemory(vault, withAgent, statusFile: base + "/status.json")) }
        }
        return (reads, memory)
    }

    /// Where vaults are built: tmpfs when there is one to write to (see `AgentBenchVault`).
    static var buildBase: String { access("/dev/shm", W_OK) == 0 ? "/dev/shm" : TemporaryDirectory.base }

    /// The same `credctl read` three ways, in interleaved rounds after one warm-up each: load from
    /// other work on the machine then falls on every way alike, not on whichever ran last.
    private func compareReads(_ vault: AgentBenchVault, withAgent: Credctl, withoutAgent: Credctl, statusFile: String) throws -> [AgentReadResult] {
        let agent = try RunningAgent(withAgent, passphraseFile: vault.passphraseFile, statusFile: statusFile)
        defer { agent.stop() }
        let read = ["read", vault.reference]
        // The last way reads nothing: it is the floor every command pays (exec, dynamic
        // libraries, the Swift runtime), against which the others' differences are small or not.
        let ways: [(name: String, credctl: Credctl, arguments: [String], runs: Int)] = [
            ("agent", withAgent, read, options.runs),
            ("key file", withoutAgent, ["--key-file", vault.keyFile] + read, options.runs),
            ("passphrase", withoutAgent, ["--passphrase-file", vault.passphraseFile] + read, options.passphraseRuns),
            ("credctl --version", withoutAgent, ["--version"], options.runs),
        ]
        // The warm-up is watched for the client's peak memory; measured runs are not, as the
        // sampling would add up to a millisecond to each.
        let peaks = try ways.map { way in try way.credctl.run(way.arguments, watchingMemory: true).peakMiB }
        var samples: [[UInt64]] = ways.map { _ in [] }
        for round in 0..<(ways.map(\.runs).max() ?? 0) {
            for (index, way) in ways.enumerated() where round < way.runs {
                let run = try way.credctl.run(way.arguments)
                samples[index].append(UInt64(run.seconds * 1e9))
            }
        }
        // The agent way names no key, so each of its reads was an agent's; this checks it was
        // the one started here, unlocked throughout (it would have locked, not restarted).
        try agent.expect("unlocked")
        let summaries = samples.map { LatencySummary(nanoseconds: $0, wallNanoseconds: $0.reduce(0, +)) }
        return ways.indices.map { index in
            AgentReadResult(way: ways[index].name, latency: summaries[index], clientPeakMiB: peaks[index],
                            medianOverAgent: summaries[index].p50Microseconds / summaries[0].p50Microseconds)
        }
    }

    /// A fresh agent for `vault`: its memory right after the unlock, after a few reads, locked.
    private func measureMemory(_ vault: AgentBenchVault, _ credctl: Credctl, statusFile: String) throws -> AgentMemoryResult {
        let agent = try RunningAgent(credctl, passphraseFile: vault.passphraseFile, statusFile: statusFile)
        defer { agent.stop() }
        let afterUnlock = try agent.idleMemory()
        for _ in 0..<options.memoryReads { try credctl.run(["read", vault.reference]) }
        try agent.expect("unlocked")
        let afterReads = try agent.idleMemory()
        try agent.lock()
        return AgentMemoryResult(hosts: vault.hosts, buildSeconds: vault.buildSeconds, unlockMilliseconds: agent.unlockSeconds * 1_000,
                                 afterUnlock: afterUnlock, afterReads: afterReads, reads: options.memoryReads, locked: try agent.idleMemory())
    }
}
