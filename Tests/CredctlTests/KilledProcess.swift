import Foundation

/// Runs `credctl` and, unless it finishes first, kills it with SIGKILL: at a failpoint (the
/// process kills itself there) or after a delay (any instant: inside SQLite transactions,
/// between a publish and its acknowledgement, while a batch is half applied).
enum KilledProcess {
    enum Kill {
        case none
        case failpoint(String)
        case after(microseconds: UInt32)
    }

    /// Where a kill landed: at a named failpoint, while the process had a vault database open
    /// (inside vault work), or before it had (process start-up, option parsing).
    enum Phase: String, CaseIterable {
        case failpoint
        case vaultOpen = "vault open"
        case startUp = "start-up"
    }

    struct Outcome {
        let status: Int32
        let killed: Bool
        /// Set when killed.
        let phase: Phase?
        /// Wall time from start to exit, for an outcome that was not killed.
        let seconds: Double
    }

    static func run(_ runner: CredctlRunner, _ arguments: [String], input: [UInt8] = [], kill: Kill) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CredctlRunner.binary)
        process.arguments = arguments
        var environment = runner.environment
        if case .failpoint(let name) = kill { environment["CREDVAULT_FAILPOINT"] = name }
        process.environment = environment
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input))
        try stdin.fileHandleForWriting.close()
        var phase: Phase?
        if case .after(let delay) = kill {
            usleep(delay)
            if process.isRunning {
                // Looked at just before the signal: a process holding a database open is working
                // on the vault.
                phase = holdsVaultOpen(process.processIdentifier, vault: runner.vault) ? .vaultOpen : .startUp
                Foundation.kill(process.processIdentifier, SIGKILL)
            }
        }
        process.waitUntilExit()
        let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        if killed, case .failpoint = kill { phase = .failpoint }
        return Outcome(status: process.terminationStatus, killed: killed, phase: killed ? phase ?? .startUp : nil,
                       seconds: Date().timeIntervalSince(started))
    }

    private static func holdsVaultOpen(_ pid: Int32, vault: String) -> Bool {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return descriptors.contains { descriptor in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)") else { return false }
            return target.hasPrefix(vault + "/") && target.contains(".sqlite")
        }
    }
}
