import CPosix
import Glibc
import SystemErrors

/// The few Unix-socket calls the agent and its clients make, on filesystem sockets only.
enum UnixSocket {
    /// Listens at `path`, replacing whatever socket is there: only the holder of the agent's lock
    /// calls this, so one found there was left by an agent that ended without removing it.
    static func listen(at path: String) throws -> Int32 {
        var address = try self.address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw AgentError("Unable to create the agent's socket: \(SystemError.describe(errno)).") }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else { close(fd); throw AgentError("\(path) is not a socket; the agent does not replace it.") }
            // Something that still accepts there (a socket systemd listens on) is alive: not replaced.
            if let live = connect(to: path, timeoutSeconds: 1) {
                close(live)
                close(fd)
                throw AgentError("Something already listens on \(path) (a systemd socket unit?); the agent does not replace it.")
            }
            unlink(path)
        }
        // Created 0600 from the start: no moment where another user could connect.
        let previous = umask(0o177)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        umask(previous)
        guard bound == 0, Glibc.listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw AgentError("Unable to listen on \(path): \(SystemError.describe(code)).")
        }
        return fd
    }

    /// A connection to the socket at `path`, or nil when nothing listens there.
    static func connect(to path: String, timeoutSeconds: Int) -> Int32? {
        guard var address = try? self.address(path) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard connected == 0, peerIsThisUser(fd) else { close(fd); return nil }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Whether the process at the other end runs as this user (`SO_PEERCRED`).
    static func peerIsThisUser(_ fd: Int32) -> Bool {
        // `struct ucred` (pid, uid, gid), which Glibc's module does not export without _GNU_SOURCE.
        var credentials = (pid: pid_t(0), uid: uid_t(0), gid: gid_t(0))
        var length = socklen_t(MemoryLayout<(pid_t, uid_t, gid_t)>.size)
        return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 && credentials.uid == geteuid() && credentials.pid > 0
    }

    private static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw AgentError("The socket path \(path) is too long.") }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return address
    }
}
