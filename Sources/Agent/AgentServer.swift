import CPosix
import CredentialVault
import Dispatch
import Glibc
import UnixSockets
import Sodium
import Synchronization
import SystemErrors

/// The agent of one vault (docs/agent.md): takes the place's lock (a second agent refuses to
/// start), listens on its control socket — or serves the one systemd passed (`LISTEN_FDS`) — and
/// answers one request at a time from processes of this user only.
public final class AgentServer: Sendable {
    public let place: AgentPlace
    /// The vault and its deadlines; the accept loop and the deadline timer take turns.
    private let unlock: Shared
    private let vaultPath: String
    private let lockFile: Int32
    private let listener: Int32
    /// Whether this agent bound its socket (else systemd did, and keeps it: it is left in place).
    private let ownsSocket: Bool
    private let stopping = Atomic(false)
    /// Nil when background sync is off (an interval of 0).
    private let sync: AgentSync?
    static let requestsPerConnection = 8

    /// Opens the vault at `vaultPath` (locked) and takes its agent's place.
    /// Syncs in the background every `syncInterval` seconds (0: never).
    public init(vaultPath: String, place: AgentPlace, environment: [String: String], syncInterval: Int = AgentSync.defaultInterval) throws {
        self.place = place
        self.vaultPath = vaultPath
        sync = syncInterval > 0 ? AgentSync(vaultPath: vaultPath, interval: syncInterval) : nil
        unlock = Shared(AgentUnlock(vault: try Vault.open(at: vaultPath)))
        try place.prepare()
        lockFile = open(place.lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lockFile >= 0 else { throw AgentError("Unable to open \(place.lock): \(SystemError.describe(errno)).") }
        guard flock(lockFile, LOCK_EX | LOCK_NB) == 0 else {
            close(lockFile)
            throw AgentError("An agent already serves the vault \(vaultPath) (\(place.socket)).")
        }
        // The lock counts only while its path still names the file locked (never unlinked by an
        // agent; a user's rm would let a second agent lock a new one).
        var held = stat(), named = stat()
        guard fstat(lockFile, &held) == 0, stat(place.lock, &named) == 0, held.st_dev == named.st_dev, held.st_ino == named.st_ino else {
            close(lockFile)
            throw AgentError("The agent's lock file \(place.lock) changed while it was taken; try again.")
        }
        do {
            let activated = try Self.activatedSocket(environment)
            listener = try activated ?? UnixSocket.listen(at: place.socket)
            ownsSocket = activated == nil
        } catch let error as UnixSocketError {
            close(lockFile)
            throw AgentError(error.message)
        } catch {
            close(lockFile)
            throw error
        }
    }

    /// Serves until `stop` is asked; locks (wiping the keys) and removes its socket on the way out.
    public func run() {
        // Deadlines are checked every second, so the keys go when they are due, not at the next request.
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [unlock] in unlock.with { _ = $0.expire() } }
        timer.resume()
        sync?.start()
        if let problem = LogindWatch.start(for: self) {
            // Its standard error is the journal under systemd (and /dev/null when credctl unlock started it).
            let line = Array("credctl agent: not watching logind (\(problem)); the vault locks on its timers only.\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        }
        while !stopping.load(ordering: .relaxed) {
            let connection = cposix_accept_cloexec(listener)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            unlock.with { serve(connection, $0) }
            close(connection)
        }
        timer.cancel()
        sync?.stop()
        unlock.with { $0.lock() }
        if ownsSocket { unlink(place.socket) }
        close(listener)
        close(lockFile)
    }

    /// Locks now (logind: the session locks, the machine sleeps), once the request being served ends.
    public func lockNow() { unlock.with { $0.lock() } }

    /// Ends `run`: no new connection is accepted; the keys are wiped on the way out.
    public func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve(_ connection: Int32, _ unlock: AgentUnlock) {
        guard UnixSocket.peerIsThisUser(connection) else { return }
        // A reply that cannot be written within 5 s ends the connection (a client that never reads).
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // Requests are served one at a time: no connection keeps the others (or the deadline
        // timer) waiting for more than a few requests, each of which must arrive whole in 5 s.
        for _ in 0..<Self.requestsPerConnection {
            guard !stopping.load(ordering: .relaxed), let frame = Frame.read(from: connection, limit: Frame.requestLimit, seconds: 5),
                  let request = AgentRequest(frame) else { return }
            unlock.expire()
            guard let reply = try? answer(request, unlock).frame, reply.write(to: connection) else { return }
        }
    }

    private func answer(_ request: AgentRequest, _ unlock: AgentUnlock) -> AgentResponse {
        switch request {
        case .status:
            return .status(unlocked: unlock.isUnlocked, secondsLeft: unlock.secondsLeft, pid: getpid(), vaultID: unlock.vault.vaultID,
                           sync: sync?.current ?? AgentSyncStatus(last: nil, next: nil, error: nil))
        case .unlock(let kind, let material, let idle, let maximum):
            do {
                try unlock.unlock(kind: kind, material: material, idle: idle, maximum: maximum)
                return .ok
            } catch {
                unlock.lock()
                return Self.error(error)
            }
        case .lock:
            unlock.lock()
            return .ok
        case .read(let text):
            guard unlock.isUnlocked else {
                return .error(code: VaultError.Code.locked.rawValue, message: "The agent holds the vault locked.", hint: "Unlock it with: credctl unlock")
            }
            do {
                let secret = try unlock.vault.readSecret(try unlock.vault.reference(for: text))
                unlock.used()
                return .secret(secret)
            } catch {
                return Self.error(error)
            }
        case .stop:
            stop()
            return .ok
        case .changed:
            // Noted only: the sync thread syncs, after the debounce; never this loop.
            sync?.changed()
            return .ok
        case .store(let text, let body, let availability):
            guard unlock.isUnlocked else {
                return .error(code: VaultError.Code.locked.rawValue, message: "The agent holds the vault locked.", hint: "Unlock it with: credctl unlock")
            }
            do {
                try unlock.vault.storeSecret(body, for: try unlock.vault.reference(for: text), availability: availability == "syncable" ? .syncable : .deviceOnly)
                unlock.used()
                return .ok
            } catch {
                return Self.error(error)
            }
        }
    }

    private static func error(_ error: any Error) -> AgentResponse {
        let error = VaultError.from(error)
        return .error(code: error.code.rawValue, message: error.message, hint: error.hint)
    }

    /// The listening socket systemd passed, when it passed exactly one to this process and it is
    /// a listening Unix stream socket.
    private static func activatedSocket(_ environment: [String: String]) throws -> Int32? {
        guard environment["LISTEN_PID"] == String(getpid()), let count = environment["LISTEN_FDS"] else { return nil }
        guard count == "1" else { throw AgentError("systemd passed \(count) sockets; the agent serves one (its control socket).") }
        var listening: Int32 = 0, type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(3, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening == 1,
              getsockopt(3, SOL_SOCKET, SO_TYPE, &type, &length) == 0, type == Int32(SOCK_STREAM.rawValue) else {
            throw AgentError("The descriptor systemd passed is not a listening stream socket.")
        }
        // Not to be inherited by anything this process starts.
        _ = fcntl(3, F_SETFD, FD_CLOEXEC)
        return 3
    }
}

/// The agent's vault behind a mutex, for the accept loop and the deadline timer.
private final class Shared: Sendable {
    private let unlock: AgentUnlock
    private let mutex = Mutex(())

    init(_ unlock: AgentUnlock) { self.unlock = unlock }

    func with<T>(_ body: (AgentUnlock) -> T) -> T { mutex.withLock { _ in body(unlock) } }
}
