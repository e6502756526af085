import Foundation

/// The user's own OpenSSH ssh-agent, as a test needs one beside credctl: started on `socket`,
/// ready when `init` returns, stopped by `stop()` (and at exit, like every fixture).
public struct UserSSHAgent {
    public let socket: String
    private let pid: pid_t

    public init(socket: String) throws {
        self.socket = socket
        pid = try FixtureProcesses.spawn(["/usr/bin/ssh-agent", "-D", "-a", socket])
        for _ in 0..<200 where access(socket, F_OK) != 0 { usleep(10_000) }
    }

    public func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        FixtureProcesses.unregister(pid)
    }
}
