import CredentialVault
import FoundationEssentials
import Glibc

/// `credbench revoke [--sizes N,N] [--output FILE]`: revoking a device of a vault of N secrets
/// (the reseal and sync on the revoking device, and on another member), and a device joining by
/// approval at that size — on a directory remote, with release `credctl` child processes.
struct RevocationBenchmark {
    let size: Int

    static func main(_ arguments: [String]) throws {
        var sizes = [10_000, 100_000]
        var output = "bench-results/revocationbench.json"
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst() else { throw BenchError("\(flag) needs a value.") }
            switch flag {
            case "--sizes": sizes = value.split(separator: ",").compactMap { Int($0) }
            case "--output": output = value
            default: throw BenchError("Unknown option '\(flag)'. USAGE: credbench revoke [--sizes N,N] [--output FILE]")
            }
        }
        var results: [RevocationResult] = []
        for size in sizes {
            Console.progress("revocation benchmark: \(size) secrets…")
            results.append(try RevocationBenchmark(size: size).run())
        }
        Console.print("secrets  revoke s  revoke peak MiB  other: sync s  reseal s  compact s  join by approval: request s  approve s  confirm+join s  join peak MiB")
        for result in results {
            Console.print([String(result.secrets), result.revokeSeconds.fixed(2), result.revokePeakMiB.fixed(1), result.otherSyncSeconds.fixed(2),
                           result.otherResealSeconds.fixed(2), result.otherCompactSeconds.fixed(2), result.requestSeconds.fixed(2),
                           result.approveSeconds.fixed(3), result.confirmAndJoinSeconds.fixed(2), result.confirmAndJoinPeakMiB.fixed(1)].joined(separator: "  "))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(RevocationBenchmarkReport(machine: MachineInfo.current(), results: results))
        if let slash = output.lastIndex(of: "/") { try FileManager.default.createDirectory(atPath: String(output[..<slash]), withIntermediateDirectories: true) }
        try data.write(to: URL(fileURLWithPath: output))
        Console.print("results written to \(output)")
    }

    func run() throws -> RevocationResult {
        let directory = try TemporaryDirectory(prefix: "revocationbench-\(size)")
        let base = directory.path, remote = base + "/remote", recovery = base + "/recovery-key"
        let credctl = SyncBenchmark.siblingExecutable("credctl")
        guard access(credctl, X_OK) == 0 else { throw BenchError("Build credctl in release mode first (swift build -c release).") }
        let environment = ["PATH=/usr/bin:/bin", "HOME=\(base)", "CREDCTL_INSECURE_FAST_KDF=1"]
        func credctlRun(_ device: String, _ arguments: [String], expecting status: Int32 = 0) throws -> ChildRun {
            let run = try ChildRun.run([credctl, "--vault", base + "/" + device, "--key-file", base + "/" + device + ".key"] + arguments, environment: environment)
            // `status` is the raw wait status: the exit status is its second byte.
            let exited = (run.status >> 8) & 0xff
            guard run.status & 0x7f == 0, exited == status else { throw BenchError("credctl \(arguments.prefix(2).joined(separator: " ")) on \(device) exited \(exited).") }
            return run
        }

        let first = try Vault.create(at: base + "/first", key: .keyFile(path: base + "/first.key"), kdf: .insecureForTesting())
        try SyncBenchmark.writeRecoveryKey(try first.setRemote(directory: remote), to: recovery)
        for index in 0..<size {
            try first.addHost(Host(label: "host-\(index)", hostname: "h\(index).example", username: "deploy"),
                              password: try SecretBytes(copying: Array("password-\(index)".utf8)))
        }
        _ = try first.sync(compaction: .fromEnvironment(immediate: true))
        for device in ["other", "lost"] {
            _ = try credctlRun(device, ["init", "--join", remote, "--recovery-key-file", recovery, "--name", device])
        }
        _ = try credctlRun("first", ["sync"])

        let revoke = try credctlRun("first", ["device", "revoke", "lost", "--yes", "--recovery-key-file", base + "/new-recovery-key"])
        let otherSync = try credctlRun("other", ["sync"])
        let otherReseal = try credctlRun("other", ["migrate"])
        let otherCompact = try credctlRun("other", ["sync", "--compact"])
        _ = try credctlRun("lost", ["sync"], expecting: 77)

        let request = try credctlRun("joiner", ["init", "--join", remote, "--name", "joiner"], expecting: 75)
        let reopened = try Vault.open(at: base + "/first")
        try reopened.unlock(.keyFile(path: base + "/first.key"))
        guard let code = try reopened.joinRequests().first?.code else { throw BenchError("No join request arrived.") }
        let approveStart = MonotonicClock.now()
        let approved = try reopened.approveJoin(code: code)
        let approveSeconds = MonotonicClock.seconds(since: approveStart)
        let join = try credctlRun("joiner", ["init", "--join", remote, "--confirm", approved.confirmation])
        guard try Vault.open(at: base + "/joiner").hosts().count == size else { throw BenchError("The device joined by approval is missing hosts.") }
        return RevocationResult(secrets: size, revokeSeconds: revoke.seconds, revokePeakMiB: revoke.peakMiB, otherSyncSeconds: otherSync.seconds,
                                otherResealSeconds: otherReseal.seconds, otherCompactSeconds: otherCompact.seconds, requestSeconds: request.seconds,
                                approveSeconds: approveSeconds, confirmAndJoinSeconds: join.seconds, confirmAndJoinPeakMiB: join.peakMiB)
    }
}
