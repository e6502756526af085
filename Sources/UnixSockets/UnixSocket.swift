import CPosix
import Glibc
import SystemErrors

/// The few Unix-socket calls the agents and their clients make, on filesystem sockets only.
public enum UnixSocket {
    /// Listens at `path`, replacing whatever socket is there: callers own the path (the agent's
    /// lock, a fresh private directory), so one found there was left by a process that ended
    /// without removing it.
    public static func listen(at path: String) throws -> Int32 {
        var address = try self.address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UnixSocketError("Unable to create a socket: \(SystemError.describe(errno)).") }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else { close(fd); throw UnixSocketError("\(path) is not a socket; it is not replaced.") }
            // Something that still accepts there (a socket systemd listens on) is alive: not replaced.
            if let live = connect(to: path, timeoutSeconds: 1) {
                close(live)
                close(fd)
                throw UnixSocketError("Something already listens on \(path) (a systemd socket unit?); it is not replaced.")
            }
            unlink(path)
        }
        // Made 0600 right after bind, not through the umask (process-wide: another thread's
        // mkdir would get it). Callers bind only in a directory of their own with mode 0700, so
        // no other user can reach the socket in between, and every connection's peer is checked.
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw UnixSocketError("Unable to listen on \(path): \(SystemError.describe(code)).")
        }
        return fd
    }

    /// A connection to the socket at `path`, or nil when nothing listens there.
    public static func connect(to path: String, timeoutSeconds: Int) -> Int32? {
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
    public static func peerIsThisUser(_ fd: Int32) -> Bool {
        // `struct ucred` (pid, uid, gid), which Glibc's module does not export without _GNU_SOURCE.
        var credentials = (pid: pid_t(0), uid: uid_t(0), gid: gid_t(0))
        var length = socklen_t(MemoryLayout<(pid_t, uid_t, gid_t)>.size)
        return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 && credentials.uid == geteuid() && credentials.pid > 0
    }

    static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw UnixSocketError("The socket path \(path) is too long.") }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return address
    }

    /// The next connection on `listener`, or nil once `stopping` says so or the socket fails.
    /// A socket of the caller's own is woken by `shutdown` when it stops, so it waits without
    /// end; one systemd passed (`passed`) must never be shut down — that would close it for
    /// systemd too — so it is looked at every half second instead.
    public static func accept(_ listener: Int32, passed: Bool, until stopping: () -> Bool) -> Int32? {
        while !stopping() {
            guard SocketStream.waitReadable(listener, milliseconds: passed ? 500 : -1) else { continue }
            guard !stopping() else { return nil }
            let connection = cposix_accept_cloexec(listener)
            if connection >= 0 { return connection }
            if errno == EINTR || errno == ECONNABORTED || errno == EAGAIN { continue }
            return nil
        }
        return nil
    }
}
