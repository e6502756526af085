import CPosix
import Glibc
import Synchronization
import Threads
import UnixSockets

/// An ssh-agent socket (docs/agent.md, "The ssh-agent"): accepts this user's processes only,
/// serves each connection on a thread of its own, at most `connectionLimit` at once, until
/// `stop`, which closes every connection and removes the socket.
public final class SSHAgentListener: Sendable {
    public static let connectionLimit = 16
    /// At most this many connections at once in the whole process, over every socket.
    public static let processConnectionLimit = 64
    private static let processConnections = Atomic(0)

    /// Nil for a socket systemd listens on: it stays when the listener stops.
    public let path: String?
    private let listener: Int32
    private let keys: any SSHAgentKeys
    private let connections = Mutex<Set<Int32>>([])
    private let stopping = Atomic(false)
    private let acceptLoopEnded = Completion()

    /// Listens at `path`, in a directory of the caller's own with mode 0700.
    public init(path: String, keys: any SSHAgentKeys) throws(UnixSocketError) {
        self.path = path
        self.keys = keys
        do {
            listener = try UnixSocket.listen(at: path)
        } catch let error as UnixSocketError {
            throw error
        } catch {
            throw UnixSocketError("Unable to listen on \(path): \(error)")
        }
        guard DetachedThread.start({ [self] in acceptLoop() }) else {
            close(listener)
            unlink(path)
            throw UnixSocketError("Unable to start a thread for \(path).")
        }
    }

    /// Serves a socket already listening (one systemd passed); it is left in place by `stop`.
    public init(listening fd: Int32, keys: any SSHAgentKeys) throws(UnixSocketError) {
        path = nil
        listener = fd
        self.keys = keys
        guard DetachedThread.start({ [self] in acceptLoop() }) else { throw UnixSocketError("Unable to start a thread for an ssh-agent socket.") }
    }

    /// Stops accepting, ends every connection, removes the socket; returns once no connection
    /// is being read (a signature already being made may still finish, and its reply is lost).
    public func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        if let path {
            // Gone from the directory at once; a socket of its own is shut down to wake the
            // accept loop now (one systemd passed is not: that would close it for systemd too).
            unlink(path)
            shutdown(listener, Int32(SHUT_RDWR))
        }
        acceptLoopEnded.wait()
        close(listener)
        connections.withLock { open in
            for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        defer { acceptLoopEnded.signal() }
        while !stopping.load(ordering: .relaxed) {
            guard let fd = UnixSocket.accept(listener, passed: path == nil, until: { stopping.load(ordering: .relaxed) }) else { return }
            guard UnixSocket.peerIsThisUser(fd), admit(fd) else {
                close(fd)
                continue
            }
            let started = DetachedThread.start { [self] in
                SSHAgentConnection(fd: fd, keys: keys).serve()
                release(fd)
            }
            if !started { release(fd) }
        }
    }

    /// Counts a connection in, unless this socket or the process has as many as it serves, or
    /// the listener stops.
    private func admit(_ fd: Int32) -> Bool {
        connections.withLock { open in
            guard open.count < Self.connectionLimit, !stopping.load(ordering: .relaxed) else { return false }
            guard Self.processConnections.add(1, ordering: .relaxed).newValue <= Self.processConnectionLimit else {
                Self.processConnections.subtract(1, ordering: .relaxed)
                return false
            }
            open.insert(fd)
            return true
        }
    }

    private func release(_ fd: Int32) {
        connections.withLock { _ = $0.remove(fd) }
        Self.processConnections.subtract(1, ordering: .relaxed)
        close(fd)
    }
}
