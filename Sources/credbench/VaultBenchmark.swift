import CredentialVault
import Glibc
import Sodium

/// Builds a vault of `size` password hosts through the public facade, reopens it, and measures
/// `Vault.resolve` on that fresh handle.
///
/// Only the facade is used — no bulk-insert shortcut — so the build time is what a user
/// importing that many hosts would wait, and the resolve numbers include every layer
/// (label lookup, forwards query, secret state query, unsealing into guarded memory).
struct VaultBenchmark {
    let size: Int
    let iterations: Int
    let warmupIterations: Int
    /// Passwords of the first few hosts, kept to check after reopening that resolve returns the
    /// right bytes, not merely some bytes.
    private static let checkedHosts = 100

    func run() throws -> SizeResult {
        let directory = try TemporaryDirectory(prefix: "credbench-\(size)")
        let vaultPath = directory.path + "/vault"
        let keyPath = directory.path + "/vault.key"
        let labels = (0..<size).map(Self.label)

        let buildStart = MonotonicClock.now()
        let expected = try build(vaultPath: vaultPath, keyPath: keyPath, labels: labels)
        let buildSeconds = MonotonicClock.seconds(since: buildStart)

        // A new handle: the build handle's statement cache and Swift-side state are gone.
        let reopenStart = MonotonicClock.now()
        let vault = try Vault.open(at: vaultPath)
        try vault.unlock(.keyFile(path: keyPath))
        let reopenMilliseconds = MonotonicClock.seconds(since: reopenStart) * 1_000
        try verify(vault, expected: expected, labels: labels)

        for _ in 0..<warmupIterations { _ = try resolvePassword(vault, labels[Self.pick(size)]) }
        let resolve = try measureResolve(vault, labels: (0..<iterations).map { _ in labels[Self.pick(size)] })
        let notFound = try measureNotFound(vault, labels: (0..<iterations).map { _ in "absent-\(Self.pick(size))" })
        // Steady state, as in a long-running process: every host resolved once, so each page
        // of both databases has been mapped and the remaining tail is the machine's own.
        for label in labels { _ = try resolvePassword(vault, label) }
        let steady = try measureResolve(vault, labels: (0..<iterations).map { _ in labels[Self.pick(size)] })

        return SizeResult(hosts: size, buildSeconds: buildSeconds, insertsPerSecond: Double(size) / buildSeconds,
                          reopenMilliseconds: reopenMilliseconds, databaseMiB: Self.databaseMiB(vaultPath),
                          resolve: resolve, steadyResolve: steady, notFound: notFound,
                          peakResidentMiB: ResourceUsage.peakResidentMiB(), ruMaxRSSMiB: ResourceUsage.maxResidentMiB(),
                          residentMiBAfter: ResourceUsage.currentResidentMiB())
    }

    /// Creates the vault and adds every host with a distinct random 16–24 byte password.
    /// Returns the first hosts' passwords for `verify`. The vault is closed on return.
    private func build(vaultPath: String, keyPath: String, labels: [String]) throws -> [[UInt8]] {
        let vault = try Vault.create(at: vaultPath, key: .keyFile(path: keyPath), kdf: .insecureForTesting())
        var expected: [[UInt8]] = []
        var lastReport = MonotonicClock.now()
        let start = lastReport
        for (index, label) in labels.enumerated() {
            let password = Random.bytes(count: 16 + Int(Random.uniform(9)))
            if index < Self.checkedHosts { expected.append(password) }
            let secret = try SecretBytes(copying: password)
            let host = Host(label: label, hostname: "10.\(index >> 16 & 255).\(index >> 8 & 255).\(index & 255)",
                            username: "bench", authMethod: .password)
            try vault.addHost(host, password: secret)
            // Progress every 10 s, so a slow build is visibly alive and its rate is known early.
            if MonotonicClock.now() - lastReport > 10_000_000_000 {
                lastReport = MonotonicClock.now()
                let elapsed = MonotonicClock.seconds(since: start)
                Console.progress("  \(size) hosts: \(index + 1) added in \(elapsed.fixed(0)) s (\((Double(index + 1) / elapsed).fixed(0)) hosts/s)")
            }
        }
        return expected
    }

    /// Checks that resolve returns exactly the stored password for the remembered hosts.
    private func verify(_ vault: Vault, expected: [[UInt8]], labels: [String]) throws {
        for (index, password) in expected.enumerated() {
            guard case .password(let secret) = try vault.resolve(labels[index]).auth else {
                throw BenchError("Host \(labels[index]) did not resolve to a password.")
            }
            let matches = secret.withUnsafeBytes { Array($0) == password }
            guard matches else { throw BenchError("Host \(labels[index]) resolved to the wrong password.") }
        }
    }

    private func measureResolve(_ vault: Vault, labels: [String]) throws -> LatencySummary {
        var samples = [UInt64](repeating: 0, count: labels.count)
        var checksum = 0
        let loopStart = MonotonicClock.now()
        for (index, label) in labels.enumerated() {
            let start = MonotonicClock.now()
            let count = try resolvePassword(vault, label)
            samples[index] = MonotonicClock.now() - start
            checksum &+= count
        }
        let wall = MonotonicClock.now() - loopStart
        // Every password is 16–24 bytes; this also keeps the result observably used.
        guard checksum >= 16 * labels.count, checksum <= 24 * labels.count else {
            throw BenchError("Resolved passwords have unexpected lengths (total \(checksum)).")
        }
        return LatencySummary(nanoseconds: samples, wallNanoseconds: wall)
    }

    private func measureNotFound(_ vault: Vault, labels: [String]) throws -> LatencySummary {
        var samples = [UInt64](repeating: 0, count: labels.count)
        let loopStart = MonotonicClock.now()
        for (index, label) in labels.enumerated() {
            let start = MonotonicClock.now()
            let outcome: VaultError.Code?
            do {
                _ = try vault.resolve(label)
                outcome = nil
            } catch {
                outcome = error.code
            }
            samples[index] = MonotonicClock.now() - start
            guard outcome == .notFound else { throw BenchError("Resolving missing host \(label) did not fail with notFound.") }
        }
        return LatencySummary(nanoseconds: samples, wallNanoseconds: MonotonicClock.now() - loopStart)
    }

    /// Resolves `label` and returns its password length (the credential is released at once).
    private func resolvePassword(_ vault: Vault, _ label: String) throws -> Int {
        guard case .password(let secret) = try vault.resolve(label).auth else {
            throw BenchError("Host \(label) did not resolve to a password.")
        }
        return secret.count
    }

    /// `host-000123`: zero-padded to six digits so labels sort like the indices.
    static func label(_ index: Int) -> String {
        let digits = String(index)
        return "host-" + String(repeating: "0", count: Swift.max(0, 6 - digits.count)) + digits
    }

    /// A uniformly random host index, from libsodium's CSPRNG (outside timed regions).
    private static func pick(_ size: Int) -> Int { Int(Random.uniform(UInt32(size))) }

    /// Bytes on disk of both databases and their WAL files, in MiB.
    private static func databaseMiB(_ vaultPath: String) -> Double {
        var total = 0
        for name in ["config.sqlite", "secrets.sqlite"] {
            for suffix in ["", "-wal", "-shm"] {
                var info = stat()
                if stat("\(vaultPath)/\(name)\(suffix)", &info) == 0 { total += Int(info.st_size) }
            }
        }
        return Double(total) / 1_048_576
    }
}
