import Glibc

/// The listening sockets systemd passed the agent (`LISTEN_PID`, `LISTEN_FDS`, `LISTEN_FDNAMES`;
/// sd_listen_fds(3)): the control socket, and the vault's ssh-agent socket when a second socket
/// unit passes it too. One descriptor is the control socket whatever its name; with two, the one
/// named `ssh` (`FileDescriptorName=ssh`) is the ssh-agent socket.
struct ActivatedSockets {
    let control: Int32
    let ssh: Int32?

    /// The sockets passed to this process, or nil when none were.
    static func fromEnvironment(_ environment: [String: String]) throws -> ActivatedSockets? {
        guard environment["LISTEN_PID"] == String(getpid()), let text = environment["LISTEN_FDS"] else { return nil }
        guard let count = Int32(text), (1...2).contains(count) else {
            throw AgentError("systemd passed \(text) sockets; the agent serves its control socket and, named ssh, its ssh-agent socket.")
        }
        let descriptors = Array(3..<(3 + count))
        for fd in descriptors {
            try checkListening(fd)
            // Not to be inherited by anything this process starts.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        let names = (environment["LISTEN_FDNAMES"] ?? "").split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard count == 2 else {
            guard names != ["ssh"] else { throw AgentError("systemd passed only the ssh-agent socket; enable credctl-agent.socket too.") }
            return ActivatedSockets(control: 3, ssh: nil)
        }
        guard names.count == 2, let ssh = names.firstIndex(of: "ssh"), names.filter({ $0 == "ssh" }).count == 1 else {
            throw AgentError("systemd passed two sockets; one must be named ssh (FileDescriptorName=ssh), and only one.")
        }
        return ActivatedSockets(control: descriptors[1 - ssh], ssh: descriptors[ssh])
    }

    private static func checkListening(_ fd: Int32) throws {
        var listening: Int32 = 0, type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening == 1,
              getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0, type == Int32(SOCK_STREAM.rawValue) else {
            throw AgentError("A descriptor systemd passed is not a listening stream socket.")
        }
    }
}
