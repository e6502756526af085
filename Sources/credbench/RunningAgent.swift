import Glibc

/// A `credctl agent` that `credctl --passphrase-file F unlock` started, ended when this is
/// released (or by `stop`).
///
/// `credctl unlock` starts the agent detached, in a session of its own, and exits: the agent is
/// not this process's child, so it is found by the pid `credctl status --json` reports and ended
/// by that pid (SIGTERM: it wipes its keys and removes its socket).
final class RunningAgent {
    let pid: pid_t
    /// `credctl unlock`: starting the agent, Argon2id in the agent, the unlocked vault.
    let unlockSeconds: Double
    private let credctl: Credctl
    private let statusFile: String
    private var stopped = false

    /// Memory is sampled this long after the last command, so the agent is idle, not mid-request.
    private static let settleMicroseconds: UInt32 = 300_000

    init(_ credctl: Credctl, passphraseFile: String, statusFile: String) throws {
        self.credctl = credctl
        self.statusFile = statusFile
        unlockSeconds = try credctl.run(["--passphrase-file", passphraseFile, "unlock"]).seconds
        let status = try credctl.agentStatus(through: statusFile)
        guard status.state == "unlocked", let pid = status.pid else { throw BenchError("After credctl unlock the agent is \(status.state).") }
        self.pid = pid
    }

    deinit { stop() }

    /// Checks that the agent still holds the vault in `state` (`unlocked`, `locked`): the
    /// numbers of a run whose agent locked or died part way would measure something else.
    func expect(_ state: String) throws {
        let status = try credctl.agentStatus(through: statusFile)
        guard status.state == state, status.pid == pid else {
            throw BenchError("The agent (pid \(pid)) should be \(state) but is \(status.state) (pid \(status.pid.map(String.init) ?? "none")).")
        }
    }

    /// `credctl lock`, checked.
    func lock() throws {
        try credctl.run(["lock"])
        try expect("locked")
    }

    /// The agent's `VmRSS` and `VmHWM` once idle.
    func idleMemory() throws -> AgentMemorySample {
        usleep(Self.settleMicroseconds)
        guard let resident = ResourceUsage.statusMiB("VmRSS:", process: String(pid)),
              let peak = ResourceUsage.statusMiB("VmHWM:", process: String(pid)) else {
            throw BenchError("The agent (pid \(pid)) has gone.")
        }
        return AgentMemorySample(residentMiB: resident, peakMiB: peak)
    }

    /// Ends the agent with SIGTERM and waits (5 s at most, then SIGKILL) until it has exited.
    func stop() {
        guard !stopped else { return }
        stopped = true
        kill(pid, SIGTERM)
        for _ in 0..<500 {
            guard isRunning else { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
    }

    /// Alive and not yet a zombie: whoever adopted the agent reaps it, or, as the init of some
    /// containers, never does — a zombie holds no memory and no socket, so it counts as ended.
    private var isRunning: Bool {
        guard let status = MachineInfo.readFile("/proc/\(pid)/status") else { return false }
        return !status.contains("State:\tZ")
    }
}
