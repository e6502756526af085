import Foundation

/// Runs `credctl` and, unless it finishes first, kills it with SIGKILL: at a failpoint (the
/// process kills itself there) or after a random delay (any instant: inside SQLite transactions,
/// between a publish and its acknowledgement, while a batch is half applied).
enum KilledProcess {
    enum Kill {
        case none
        case failpoint(String)
        case after(microseconds: UInt32)
    }

    struct Outcome {
        let status: Int32
        let killed: Bool
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
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input))
        try stdin.fileHandleForWriting.close()
        if case .after(let delay) = kill {
            usleep(delay)
            if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        return Outcome(status: process.terminationStatus, killed: killed)
    }
}
