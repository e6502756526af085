import CredentialVault
import FoundationEssentials
import Glibc

/// `credbench migrate [--sizes N,N]`: the every-launch migration. A vault holds `size` hosts
/// whose passwords are already syncable plus 1,000 device-only ones stored before a remote was
/// bound. The first unlock with the remote bound migrates the 1,000; every later unlock only
/// scans for work — that scan must cost the same whatever the vault's size.
enum MigrationBenchmark {
    static let deviceOnlyItems = 1_000

    static func main(_ arguments: [String]) throws {
        var sizes = [1_000, 20_000]
        if arguments.count == 2, arguments[0] == "--sizes" { sizes = arguments[1].split(separator: ",").compactMap { Int($0) } }
        var results: [MigrationResult] = []
        for size in sizes {
            Console.progress("migration benchmark: \(size) syncable + \(deviceOnlyItems) device-only…")
            results.append(try run(size: size))
        }
        Console.print("syncable  device-only  first unlock ms  migrated  later unlock µs (median, slowest)")
        for result in results {
            let columns: [String] = [String(result.syncableItems), String(result.deviceOnlyItems), result.firstUnlockMilliseconds.fixed(1),
                                     String(result.migrated), result.laterUnlockMicrosecondsMedian.fixed(1) + ", " + result.laterUnlockMicrosecondsSlowest.fixed(1)]
            Console.print(columns.joined(separator: "  "))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try FileManager.default.createDirectory(atPath: "bench-results", withIntermediateDirectories: true)
        try encoder.encode(results).write(to: URL(fileURLWithPath: "bench-results/migrationbench.json"))
        Console.print("results written to bench-results/migrationbench.json")
    }

    private static func run(size: Int) throws -> MigrationResult {
        let directory = try TemporaryDirectory(prefix: "migrationbench-\(size)")
        let key = UnlockKey.keyFile(path: directory.path + "/vault.key")
        let vault = try Vault.create(at: directory.path + "/vault", key: key, kdf: .insecureForTesting())
        try vault.setRemote(directory: directory.path + "/remote")
        for index in 0..<size {
            try vault.addHost(Host(label: "host-\(index)", hostname: "h\(index).example"), password: try SecretBytes(copying: Array("pw-\(index)".utf8)))
        }
        // Device-only, unpinned secrets, as a vault stores them before it has a remote: pinned
        // to the device (which makes them device-only) and then let go while locked.
        var references: [SecretReference] = []
        for index in 0..<deviceOnlyItems {
            try vault.addHost(Host(label: "local-\(index)", hostname: "l\(index).example"), password: try SecretBytes(copying: Array("local-\(index)".utf8)))
            let reference = try vault.reference(for: "cred://host/local-\(index)/password")
            try vault.pin(reference, deviceOnly: true)
            references.append(reference)
        }
        let locked = try Vault.open(at: directory.path + "/vault")
        for reference in references { try locked.pin(reference, deviceOnly: false) }
        let start = MonotonicClock.now()
        try locked.unlock(key)
        let first = MonotonicClock.seconds(since: start)
        let migrated = try locked.status().syncableSecrets
        var samples: [Double] = []
        for _ in 0..<200 {
            let reopened = try Vault.open(at: directory.path + "/vault")
            let begin = MonotonicClock.now()
            try reopened.unlock(key)
            samples.append(Double(MonotonicClock.now() - begin) / 1_000)
        }
        samples.sort()
        return MigrationResult(syncableItems: size, deviceOnlyItems: deviceOnlyItems, firstUnlockMilliseconds: first * 1_000,
                      migrated: migrated - size, laterUnlockMicrosecondsMedian: samples[samples.count / 2],
                      laterUnlockMicrosecondsSlowest: samples.last ?? 0, rounds: samples.count)
    }
}
