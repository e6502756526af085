import CredentialVault
import FoundationEssentials
import Glibc
import Replication
import S3
import TestSupport

/// A new device joining a remote that holds `size` hosts with passwords, and then one changed
/// record synced: the join must scale with the vault, the one-change sync with the change.
///
/// The first device is built and published through the facade; the joining device is the real
/// `credctl` (release build, beside this executable) in a child process, so its time and peak
/// memory are its own. The remote is a directory or a bucket of a SeaweedFS server on
/// 127.0.0.1; `snapshots` says whether the first device compacted before the join (a snapshot
/// and only its newest batch left) or left the whole history of batches.
struct SyncBenchmark {
    let size: Int
    /// nil for a directory remote.
    let server: SeaweedServer?
    let snapshots: Bool

    func run() throws -> SyncResult {
        let directory = try TemporaryDirectory(prefix: "syncbench-\(size)")
        let base = directory.path
        let credctl = Self.siblingExecutable("credctl")
        guard access(credctl, X_OK) == 0 else { throw BenchError("Build credctl in release mode first (swift build -c release).") }
        let recoveryKeyFile = base + "/recovery-key"

        let buildStart = MonotonicClock.now()
        let first = try Vault.create(at: base + "/first", key: .keyFile(path: base + "/first.key"), kdf: .insecureForTesting())
        var remoteArguments = [base + "/remote"]
        var bucket: S3Remote?
        var environment = ["PATH=/usr/bin:/bin", "HOME=\(base)", "CREDCTL_INSECURE_FAST_KDF=1"]
        if let server {
            let prefix = "bench-\(size)-\(snapshots ? "snapshots" : "history")-\(getpid())"
            let url = "s3://\(server.bucket)/\(prefix)"
            bucket = S3Remote(location: try server.location(prefix: prefix), credentials: try server.credentials())
            setenv("AWS_ACCESS_KEY_ID", SeaweedServer.accessKey, 1)
            setenv("AWS_SECRET_ACCESS_KEY", server.secretKey, 1)
            environment += ["AWS_ACCESS_KEY_ID=\(SeaweedServer.accessKey)", "AWS_SECRET_ACCESS_KEY=\(server.secretKey)"]
            remoteArguments = [url, "--endpoint", server.endpoint, "--path-style"]
            try Self.writeRecoveryKey(try first.setRemote(try RemoteAddress.parse(url, endpoint: server.endpoint, pathStyle: true)), to: recoveryKeyFile)
        } else {
            try Self.writeRecoveryKey(try first.setRemote(directory: base + "/remote"), to: recoveryKeyFile)
        }
        var hosts: [Host] = []
        for index in 0..<size {
            hosts.append(try first.addHost(Host(label: "host-\(index)", hostname: "h\(index).example", username: "deploy"),
                                           password: try SecretBytes(copying: Array("password-\(index)".utf8))))
        }
        let buildSeconds = MonotonicClock.seconds(since: buildStart)
        let publishStart = MonotonicClock.now()
        var history = CompactionPolicy()
        history.snapshotAfterBatches = .max
        _ = try first.sync(compaction: history)
        let publishSeconds = MonotonicClock.seconds(since: publishStart)
        let compactStart = MonotonicClock.now()
        if snapshots { _ = try first.sync(compaction: .fromEnvironment(immediate: true)) }
        let compactSeconds = MonotonicClock.seconds(since: compactStart)
        let remoteObjects = try bucket?.usage().objects ?? Self.countFiles(base + "/remote")

        let join = try ChildRun.run([credctl, "--vault", base + "/second", "--key-file", base + "/second.key", "init", "--join"] + remoteArguments
                                    + ["--recovery-key-file", recoveryKeyFile], environment: environment)
        guard join.status == 0 else { throw BenchError("credctl init --join failed (status \(join.status)).") }

        // One change at a time, several rounds: the median and the slowest say more than one run.
        var rounds: [ChildRun] = []
        for round in 0..<Self.oneChangeRounds {
            let edited = hosts[(size / 2 + round * 7_919) % size]
            try first.updateHost(try first.host(CanonicalUUID.text(edited.id)).with(port: 2_000 + round))
            _ = try first.sync(compaction: history)
            let run = try ChildRun.run([credctl, "--vault", base + "/second", "sync"], environment: environment)
            guard run.status == 0 else { throw BenchError("credctl sync failed (status \(run.status)).") }
            let check = try Vault.open(at: base + "/second")
            guard try check.host(CanonicalUUID.text(edited.id)).port == 2_000 + round else {
                throw BenchError("The joined device does not hold what the first device published.")
            }
            rounds.append(run)
        }
        guard try Vault.open(at: base + "/second").hosts().count == size else { throw BenchError("The joined device is missing hosts.") }
        let milliseconds = rounds.map { $0.seconds * 1_000 }.sorted()
        return SyncResult(hosts: size, records: 2 * size, backend: server == nil ? "directory" : "s3", snapshots: snapshots,
                          buildSeconds: buildSeconds, publishSeconds: publishSeconds, compactSeconds: snapshots ? compactSeconds : nil,
                          joinSeconds: join.seconds, joinPeakMiB: join.peakMiB, oneChangeSyncMilliseconds: milliseconds[milliseconds.count / 2],
                          oneChangeSlowestMilliseconds: milliseconds.last ?? 0, oneChangeRounds: rounds.count,
                          oneChangePeakMiB: rounds.map(\.peakMiB).max() ?? 0, remoteObjectsAtJoin: remoteObjects)
    }

    static let oneChangeRounds = 7

    static func siblingExecutable(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4_096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = length > 0 ? String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return (path.split(separator: "/").dropLast().map { "/" + $0 }.joined()) + "/" + name
    }

    static func countFiles(_ path: String) -> Int {
        guard let directory = opendir(path) else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            count += entry.pointee.d_type == UInt8(DT_DIR) ? countFiles(path + "/" + name) : 1
        }
        return count
    }

    /// The new remote's recovery key, in a 0600 file the joining device reads.
    static func writeRecoveryKey(_ outcome: BindOutcome, to path: String) throws {
        guard case .created(let key) = outcome else { throw BenchError("the first device did not create the remote") }
        try key.printable().write(toNewPrivateFile: path)
    }
}

private extension Host {
    func with(port: Int) -> Host {
        var copy = self
        copy.port = port
        return copy
    }
}
