/// The command line of `credbench agent`, validated before anything runs; also written to the
/// JSON file, so a result says what it was measured with.
///
/// The defaults keep the whole run to a few minutes on 2 cores: a passphrase read costs a full
/// Argon2id (64 MiB, 3 passes) each time, so it gets fewer runs than the two cheap ways.
struct AgentBenchOptions: Codable {
    /// Hosts in the vault the three ways of reading are compared on.
    var hosts = 1_000
    /// Vault sizes at which the agent's memory is recorded.
    var memorySizes = [1_000, 10_000, 100_000]
    /// Measured reads through the agent and with the key file, each.
    var runs = 30
    /// Measured reads with the passphrase.
    var passphraseRuns = 10
    /// Reads through the agent between the memory samples after unlocking and after reads.
    var memoryReads = 5
    var output = "bench-results/agentbench.json"

    static let usage = """
        USAGE: credbench agent [--hosts N] [--memory-sizes N,N,...] [--runs N] [--passphrase-runs N] [--output FILE]

        OPTIONS:
          --hosts N               Hosts in the vault the reads are compared on (default 1000)
          --memory-sizes N,N,...  Vault sizes at which the agent's memory is recorded (default 1000,10000,100000)
          --runs N                Measured reads through the agent and with the key file (default 30)
          --passphrase-runs N     Measured reads with the passphrase, Argon2id each (default 10)
          --output FILE           Where to write the JSON results (default bench-results/agentbench.json)
          --help                  Show this help
        """

    /// Parses `arguments` (after `agent`). Returns nil when help was asked for.
    static func parse(_ arguments: [String]) throws -> AgentBenchOptions? {
        guard let pairs = try BenchArguments.pairs(arguments) else { return nil }
        var options = AgentBenchOptions()
        for (flag, value) in pairs {
            let numbers = value.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
            guard flag == "--output" || (!numbers.isEmpty && numbers.allSatisfy { $0 > 0 }) else {
                throw BenchError("\(flag) takes positive whole numbers, not '\(value)'.")
            }
            switch flag {
            case "--hosts" where numbers.count == 1: options.hosts = numbers[0]
            case "--memory-sizes": options.memorySizes = numbers
            case "--runs" where numbers.count == 1: options.runs = numbers[0]
            case "--passphrase-runs" where numbers.count == 1: options.passphraseRuns = numbers[0]
            case "--output" where !value.isEmpty: options.output = value
            default: throw BenchError("Unknown option or value '\(flag) \(value)'.\n\(usage)")
            }
        }
        return options
    }
}
