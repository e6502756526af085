import Glibc
import UnixSockets

/// Another ssh-agent, reached through its socket: the user's own (a hop that authenticates with
/// it) or the credctl agent's per-connection socket, when `credctl ssh` must offer keys from
/// more than one place on the one socket ssh takes. Each question is a connection of its own.
public struct UpstreamAgent: SSHAgentKeys {
    public let socketPath: String

    public init(socketPath: String) { self.socketPath = socketPath }

    public func identities() -> [SSHAgentIdentity] {
        guard case .identities(let identities)? = ask(.requestIdentities, seconds: 5) else { return [] }
        return identities
    }

    public func sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32) -> [UInt8]? {
        // Long enough for the other agent to ask its user to confirm.
        guard case .signature(let blob)? = ask(.sign(keyBlob: keyBlob, data: data, flags: flags), seconds: 90) else { return nil }
        return blob
    }

    private func ask(_ request: SSHAgentRequest, seconds: Int) -> SSHAgentReply? {
        guard let fd = UnixSocket.connect(to: socketPath, timeoutSeconds: seconds) else { return nil }
        defer { close(fd) }
        guard SSHAgentMessageIO.write(fd, request.message), let reply = SSHAgentMessageIO.read(fd, seconds: seconds) else { return nil }
        return SSHAgentReply(message: reply)
    }
}
