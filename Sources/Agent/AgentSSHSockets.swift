import Identifiers
import Glibc
import Sodium
import SSHAgentService
import Synchronization
import Threads
import UnixSockets

/// The agent's ssh-agent sockets (docs/agent.md, "The ssh-agent"): the vault's, serving every
/// identity, and the per-connection ones `credctl ssh` asks for, each serving only the
/// identities it named and removed when the control connection that asked for it closes.
final class AgentSSHSockets: Sendable {
    /// At most this many per-connection sockets at once (each holds a thread while it lives).
    static let perConnectionLimit = 32

    private let place: AgentPlace
    private let unlock: SharedUnlock
    private let environment: [String: String]
    private let vaultSocket = Mutex<SSHAgentListener?>(nil)
    /// Per-connection sockets, by the control connection they live as long as.
    private let perConnection = Mutex<[Int32: SSHAgentListener]>([:])
    private let stopping = Atomic(false)
    /// The vault's socket when systemd listens on it (and keeps it).
    private let activated: Int32?

    init(place: AgentPlace, unlock: SharedUnlock, environment: [String: String], activated: Int32?) {
        self.place = place
        self.unlock = unlock
        self.environment = environment
        self.activated = activated
    }

    /// Removes per-connection sockets an agent killed outright left behind, then listens on
    /// the vault's socket; a problem is said in words (the agent goes on without it).
    func start() -> String? {
        place.removeStaleConnectionSockets()
        do {
            let keys = AgentSSHKeys(unlock: unlock, allowed: nil, confirmation: KeyUseConfirmation(environment: environment))
            let listener = if let activated { try SSHAgentListener(listening: activated, keys: keys) } else { try SSHAgentListener(path: place.sshSocket, keys: keys) }
            vaultSocket.withLock { $0 = listener }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A socket serving `identities` until `connection` (the control connection that asked,
    /// which this owns once `watch` is called) closes. Confirmations use the client's display, else the agent's.
    func open(for connection: Int32, identities: Set<UUID>, clientEnvironment: [String: String]) throws -> String {
        let path = try place.connectionSocket()
        let session = clientEnvironment["SSH_ASKPASS"] != nil || clientEnvironment["DISPLAY"] != nil || clientEnvironment["WAYLAND_DISPLAY"] != nil
            ? clientEnvironment : environment
        let keys = AgentSSHKeys(unlock: unlock, allowed: identities, confirmation: KeyUseConfirmation(environment: session))
        let admitted = try perConnection.withLock { open -> Bool in
            guard open.count < Self.perConnectionLimit, !stopping.load(ordering: .relaxed) else { return false }
            open[connection] = try SSHAgentListener(path: path, keys: keys)
            return true
        }
        guard admitted else { throw AgentError("The agent serves \(Self.perConnectionLimit) ssh connections already.") }
        return path
    }

    /// Ends the socket made for `connection` when the client sends anything more or closes it.
    func watch(_ connection: Int32) {
        DetachedThread.start { [self] in
            while !stopping.load(ordering: .relaxed), !SocketStream.waitReadable(connection, milliseconds: 1_000) {}
            close(for: connection)
        }
    }

    /// Closes every socket (the agent ends).
    func stop() {
        stopping.store(true, ordering: .relaxed)
        vaultSocket.withLock { $0?.stop(); $0 = nil }
        let open = perConnection.withLock { $0.keys }
        for connection in open { close(for: connection) }
    }

    private func close(for connection: Int32) {
        guard let listener = perConnection.withLock({ $0.removeValue(forKey: connection) }) else { return }
        listener.stop()
        Glibc.close(connection)
    }
}
