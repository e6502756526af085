import ConfigTrack
import CPosix
import CredentialVault
import Identifiers
import Glibc
import Sodium
import Synchronization
import SystemErrors
import Threads
import UnixSockets

/// The agent of one vault (docs/agent.md): takes the place's lock (a second agent refuses to
/// start), listens on its control socket — or serves the one systemd passed (`LISTEN_FDS`) — and
/// answers one request at a time from processes of this user only.
public final class AgentServer: Sendable {
    public let place: AgentPlace
    /// The vault and its deadlines; the accept loop and the deadline timer take turns.
    private let unlock: SharedUnlock
    private let vaultPath: String
    private let lockFile: Int32
    private let listener: Int32
    /// Whether this agent bound its socket (else systemd did, and keeps it: it is left in place).
    private let ownsSocket: Bool
    private let stopping = Atomic(false)
    /// Nil when background sync is off (an interval of 0).
    private let sync: AgentSync?
    private let sshSockets: AgentSSHSockets
    static let requestsPerConnection = 8

    /// Opens the vault at `vaultPath` (locked) and takes its agent's place.
    /// Syncs in the background every `syncInterval` seconds (0: never).
    public init(vaultPath: String, place: AgentPlace, environment: [String: String], syncInterval: Int = AgentSync.defaultInterval) throws {
        self.place = place
        self.vaultPath = vaultPath
        sync = syncInterval > 0 ? AgentSync(vaultPath: vaultPath, interval: syncInterval) : nil
        unlock = SharedUnlock(AgentUnlock(vault: try Vault.open(at: vaultPath)))
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
            let activated = try ActivatedSockets.fromEnvironment(environment)
            listener = try activated?.control ?? UnixSocket.listen(at: place.socket)
            ownsSocket = activated == nil
            sshSockets = AgentSSHSockets(place: place, unlock: unlock, environment: environment, activated: activated?.ssh)
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
        // On a thread of its own: no number of waiting ssh-agent connections can delay a lock.
        DetachedThread.start { [self] in
            while !stopping.load(ordering: .relaxed) {
                sleep(1)
                unlock.with { _ = $0.expire() }
            }
        }
        sync?.start()
        // Its standard error is the journal under systemd (and /dev/null when credctl unlock started it).
        if let problem = LogindWatch.start(for: self) {
            Self.say("not watching logind (\(problem)); the vault locks on its timers only")
        }
        if let problem = sshSockets.start() { Self.say("no ssh-agent socket (\(problem))") }
        while !stopping.load(ordering: .relaxed) {
            guard let connection = UnixSocket.accept(listener, passed: !ownsSocket, until: { stopping.load(ordering: .relaxed) }) else { break }
            // A connection that asked for an ssh-agent socket now belongs to it (its end ends the socket).
            let handedOver = unlock.with { serve(connection, $0) }
            if !handedOver { close(connection) }
        }
        sync?.stop()
        sshSockets.stop()
        unlock.with { $0.lock() }
        if ownsSocket { unlink(place.socket) }
        close(listener)
        close(lockFile)
    }

    /// Locks now (logind: the session locks, the machine sleeps), once the request being served ends.
    public func lockNow() { unlock.with { $0.lock() } }

    /// Ends `run`: no new connection is accepted; the keys are wiped on the way out.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        // Its own socket is shut down to wake the accept loop now; one systemd passed is left to
        // the loop's next look (shutting it down would close it for systemd too).
        if ownsSocket { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    /// Answers a connection's requests; true when the connection was handed to an ssh-agent socket.
    private func serve(_ connection: Int32, _ unlock: AgentUnlock) -> Bool {
        guard UnixSocket.peerIsThisUser(connection) else { return false }
        // A reply that cannot be written within 5 s ends the connection (a client that never reads).
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // Requests are served one at a time: no connection keeps the others (or the deadline
        // timer) waiting for more than a few requests, each of which must arrive whole in 5 s.
        for _ in 0..<Self.requestsPerConnection {
            guard !stopping.load(ordering: .relaxed), let frame = Frame.read(from: connection, limit: Frame.requestLimit, seconds: 5),
                  let request = AgentRequest(frame) else { return false }
            unlock.expire()
            if case .sshSocket(let identities, let environment) = request {
                let reply = sshSocket(for: connection, identities: identities, environment: environment, unlock)
                _ = (try? reply.frame)?.write(to: connection)
                guard case .path = reply else { return false }
                // Watched only once the answer is written: from here its end may come any time.
                sshSockets.watch(connection)
                return true
            }
            guard let reply = try? answer(request, unlock).frame, reply.write(to: connection) else { return false }
        }
        return false
    }

    /// Makes a per-connection ssh-agent socket for identities the vault has, while unlocked.
    private func sshSocket(for connection: Int32, identities: [UUID], environment: [String: String], _ unlock: AgentUnlock) -> AgentResponse {
        guard unlock.isUnlocked else { return Self.lockedError }
        do {
            for id in identities where try unlock.vault.identity(id: id) == nil {
                return .error(code: VaultError.Code.notFound.rawValue, message: "No identity on this device has the id \(CanonicalUUID.text(id)).", hint: nil)
            }
            let path = try sshSockets.open(for: connection, identities: Set(identities), clientEnvironment: environment)
            // A use: the hops' signatures follow within moments, and should not find it locked.
            unlock.used()
            return .path(path)
        } catch {
            return Self.error(error)
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
            guard unlock.isUnlocked else { return Self.lockedError }
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
        case .sshSocket:
            // Served by `serve`, which hands the connection to the socket it makes.
            return .error(code: VaultError.Code.invalidInput.rawValue, message: "An ssh socket is asked for only as a connection's own request.", hint: nil)
        case .store(let text, let body, let availability):
            guard unlock.isUnlocked else { return Self.lockedError }
            do {
                try unlock.vault.storeSecret(body, for: try unlock.vault.reference(for: text), availability: availability == "syncable" ? .syncable : .deviceOnly)
                unlock.used()
                return .ok
            } catch {
                return Self.error(error)
            }
        }
    }

    private static var lockedError: AgentResponse { .error(code: VaultError.Code.locked.rawValue, message: "The agent holds the vault locked.",
                                                         hint: "Unlock it with: credctl unlock") }

    private static func say(_ problem: String) {
        let line = Array("credctl agent: \(problem).\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    private static func error(_ error: any Error) -> AgentResponse {
        let error = VaultError.from(error)
        return .error(code: error.code.rawValue, message: error.message, hint: error.hint)
    }
}
