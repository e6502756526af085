import Glibc

/// `credbench cli-vaults --directory DIR [--sizes N,N,...]`: the vaults `make bench-cli` reads
/// with whole `credctl read` processes (scripts/bench-cli.sh).
///
/// One `AgentBenchVault` grown through the sizes, as `credbench agent` builds it, its copy moved
/// to `DIR/vault-N` after each size; all copies share the key file `DIR/vault.key`. Prints the
/// address of the one stored password on standard output, for the script to read.
enum CLIVaultsRun {
    static let usage = """
        USAGE: credbench cli-vaults --directory DIR [--sizes N,N,...]

        OPTIONS:
          --directory DIR   An existing empty directory for vault-N, vault.key and passphrase
          --sizes N,N,...   Hosts in each vault (default 1000,10000)
          --help            Show this help
        """

    static func main(_ arguments: [String]) throws {
        guard let pairs = try BenchArguments.pairs(arguments) else { return Console.print(usage) }
        var directory = ""
        var sizes = [1_000, 10_000]
        for (flag, value) in pairs {
            switch flag {
            case "--directory": directory = value
            case "--sizes": sizes = value.split(separator: ",").map { Int($0) ?? 0 }
            default: throw BenchError("Unknown option '\(flag)'.\n\(usage)")
            }
        }
        guard !directory.isEmpty, !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else { throw BenchError("--directory and positive --sizes are required.\n\(usage)") }

        let building = try TemporaryDirectory(prefix: "clibench-build", in: AgentBenchmark.buildBase)
        let vault = try AgentBenchVault(in: directory, building: building.path)
        for size in sizes.sorted() {
            try vault.grow(to: size)
            let target = "\(directory)/vault-\(size)"
            guard rename(vault.path, target) == 0 else { throw BenchError("Unable to move \(vault.path) to \(target) (errno \(errno)).") }
            Console.progress("  vault of \(size) hosts after \(vault.buildSeconds.fixed(1)) s of building")
        }
        Console.print(vault.reference)
    }
}
