import CredentialVault
import Identifiers
import Glibc
import Sodium
import SSHAgentService
import UnixSockets

/// A connection to the agent of a vault, when one answers. Requests and their answers are
/// bounded in time, so a stuck agent makes a command fall back rather than hang.
public final class AgentClient: @unchecked Sendable {
    public let place: AgentPlace
    private let fd: Int32

    /// Connects when an agent of this user listens at `place`; nil otherwise.
    public init?(place: AgentPlace, timeoutSeconds: Int = 10) {
        // No socket, no agent: said without building the error text `check` would throw.
        guard access(place.socket, F_OK) == 0, (try? place.check()) != nil, let fd = UnixSocket.connect(to: place.socket, timeoutSeconds: timeoutSeconds) else { return nil }
        self.place = place
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends `request` and waits for the answer: 60 s for an unlock (Argon2id, the desktop
    /// keyring), 1 s for `changed` (no command waits on it), 5 s for anything else.
    public func send(_ request: AgentRequest) throws -> AgentResponse {
        let seconds = switch request {
        case .unlock: 60
        case .changed: 1
        default: 5
        }
        guard try request.frame.write(to: fd), let frame = Frame.read(from: fd, limit: Frame.responseLimit, seconds: seconds),
              let response = AgentResponse(frame) else {
            // Said as "locked": a command that asked falls back to unlocking as it would without one.
            throw VaultError(.locked, "The agent at \(place.socket) did not answer.", hint: "Check it with: credctl status")
        }
        return response
    }

    /// Tells the agent at `place`, if one runs, that its vault changed here, so it syncs soon.
    /// Best effort and quick: no agent, one that does not answer within a second, or one too old
    /// to know the request, is as good as told.
    public static func tellChanged(place: AgentPlace) {
        _ = try? AgentClient(place: place, timeoutSeconds: 1)?.send(.changed)
    }

    /// The agent's state: unlocked or not, for how long, its pid and the id of the vault it serves.
    public func status() throws -> (unlocked: Bool, secondsLeft: Int?, pid: Int32, vaultID: String, sync: AgentSyncStatus) {
        guard case .status(let unlocked, let left, let pid, let vaultID, let sync) = try send(.status) else { throw AgentError("The agent answered status with something else.") }
        return (unlocked, left, pid, vaultID, sync)
    }
}

extension AgentClient {
    /// Has the agent make an ssh-agent socket serving only `identities`; it lives as long as this
    /// connection (send nothing more on it). `environment` is the user's askpass session.
    public func sshSocket(identities: [UUID], environment: [String: String]) throws -> String {
        switch try send(.sshSocket(identities: identities, environment: environment.filter { KeyUseConfirmation.variables.contains($0.key) })) {
        case .path(let path): return path
        case .error(let code, let message, let hint):
            throw VaultError(VaultError.Code(rawValue: code) ?? .storage, message, hint: hint)
        default: throw AgentError("The agent answered an ssh-socket request with something else.")
        }
    }
}

extension AgentClient: SecretSource {
    /// Reads a body through the agent, with the vault's own errors when it refuses.
    public func read(_ reference: SecretReference) throws -> SecretBytes {
        switch try send(.read(reference: reference.key)) {
        case .secret(let body): return body
        case .error(let code, let message, let hint):
            throw VaultError(VaultError.Code(rawValue: code) ?? .storage, message, hint: hint)
        default: throw AgentError("The agent answered a read with something else.")
        }
    }

    /// Has the agent seal and store a body; the record naming it is written by the caller after.
    public func store(_ body: SecretBytes, for reference: SecretReference, availability: Availability) throws {
        switch try send(.store(reference: reference.key, body: body, availability: availability.rawValue)) {
        case .ok: return
        case .error(let code, let message, let hint):
            throw VaultError(VaultError.Code(rawValue: code) ?? .storage, message, hint: hint)
        default: throw AgentError("The agent answered a store with something else.")
        }
    }
}
