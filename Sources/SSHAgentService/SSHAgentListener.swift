import CPosix
import Dispatch
import Glibc
import Synchronization
import UnixSockets

/// An ssh-agent socket (docs/agent.md, "The ssh-agent"): accepts this user's processes only,
/// serves each connection on a thread of its own, at most `connectionLimit` at once, until
/// `stop`, which closes every connection and removes the socket.
public final class SSHAgentListener: Sendable {
    public static let connectionLimit = 16
    /// At most this many connections at once in the whole process, over every socket.
    public static let processConnectionLimit = 64
    private static let processConnections = Atomic(0)

    public let path: String
    private let listener: Int32
    private let keys: any SSHAgentKeys
    private let connections = Mutex<Set<Int32>>([])
    private let stopping = Atomic(false)
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

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

    /// Stops accepting, ends every connection, removes the socket; returns once no connection
    /// is being read (a signature already being made may still finish, and its reply is lost).
    public func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        acceptLoopEnded.wait()
        close(listener)
        unlink(path)
        connections.withLock { open in
            for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        defer { acceptLoopEnded.signal() }
        while !stopping.load(ordering: .relaxed) {
            let fd = cposix_accept_cloexec(listener)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
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
