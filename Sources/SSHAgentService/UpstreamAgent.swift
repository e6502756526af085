import Glibc
import UnixSockets

/// Another ssh-agent, reached through its socket: the user's own (a hop that authenticates with
/// it) or the credctl agent's per-connection socket, when `credctl ssh` must offer keys from
/// more than one place on the one socket ssh takes. Each question is a connection of its own.
public struct UpstreamAgent: SSHAgentKeys {
    public let socketPath: String

    public init(socketPath: String) { self.socketPath = socketPath }

    public func identities() -> [SSHAgentIdentity] {
        guard case .identities(let identities)? = ask([.requestIdentities], seconds: 5) else { return [] }
        return identities
    }

    public func sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32, forwarded: Bool) -> [UInt8]? {
        // Long enough for the other agent to ask its user to confirm; a forwarded request is
        // said to be one there too, before it is made.
        let request = SSHAgentRequest.sign(keyBlob: keyBlob, data: data, flags: flags)
        guard case .signature(let blob)? = ask(forwarded ? [.sessionBind(forwarding: true), request] : [request], seconds: 90) else { return nil }
        return blob
    }

    /// Sends `requests` on one connection; the answer to the last.
    private func ask(_ requests: [SSHAgentRequest], seconds: Int) -> SSHAgentReply? {
        guard let fd = UnixSocket.connect(to: socketPath, timeoutSeconds: seconds) else { return nil }
        defer { close(fd) }
        var reply: SSHAgentReply?
        for request in requests {
            guard SSHAgentMessageIO.write(fd, request.message), let answer = SSHAgentMessageIO.read(fd, seconds: seconds) else { return nil }
            reply = SSHAgentReply(message: answer)
        }
        return reply
    }
}
