import Glibc

/// The release `credctl` beside this executable, run on one vault with a fixed environment.
///
/// The environment is built, not inherited: no `CREDCTL_*` of the user's, no
/// `CREDCTL_INSECURE_FAST_KDF`, and the `XDG_RUNTIME_DIR` that decides which agent (if any) a
/// command finds.
struct Credctl {
    let executable: String
    let vault: String
    let environment: [String]

    init(vault: String, environment: [String]) throws {
        executable = SyncBenchmark.siblingExecutable("credctl")
        guard access(executable, X_OK) == 0 else { throw BenchError("Build credctl in release mode first (swift build -c release).") }
        self.vault = vault
        self.environment = environment
    }

    /// Runs `credctl --vault VAULT ARGUMENTS…` (standard output to `output`); an exit status
    /// other than 0 is an error. Timed to the microsecond unless `watchingMemory`.
    @discardableResult
    func run(_ arguments: [String], output: String = "/dev/null", watchingMemory: Bool = false) throws -> ChildRun {
        let run = try ChildRun.run([executable, "--vault", vault] + arguments, environment: environment, output: output, watchingMemory: watchingMemory)
        guard run.status == 0 else { throw BenchError("credctl \(arguments.joined(separator: " ")) failed (wait status \(run.status)).") }
        return run
    }

    /// The agent as `credctl status --json` reports it, read through the scratch file `file`.
    func agentStatus(through file: String) throws -> CredctlStatus.Agent {
        try run(["status", "--json"], output: file)
        guard let text = MachineInfo.readFile(file) else { throw BenchError("Unable to read \(file).") }
        return try CredctlStatus.decode(text).agent
    }
}
