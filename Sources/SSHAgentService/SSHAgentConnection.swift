import Glibc
import UnixSockets

/// One client of an ssh-agent socket, served until it closes, goes idle for
/// `idleSeconds`, or breaks the framing.
struct SSHAgentConnection {
    /// A message must arrive whole within this many seconds of its first byte.
    static let messageSeconds = 5
    /// ssh keeps its agent connection only while it authenticates (a password typed at a hop's
    /// prompt included); one idle this long is dropped.
    static let idleSeconds: Int32 = 120

    /// No listing holds more keys.
    static let listLimit = 1_024

    let fd: Int32
    let keys: any SSHAgentKeys

    func serve() {
        // Once a forwarded connection, always one: a later binding cannot lift it.
        var forwarded = false
        while let message = readMessage() {
            let request = SSHAgentRequest(message: message)
            if case .sessionBind(true) = request { forwarded = true }
            guard SSHAgentMessageIO.write(fd, answer(request, forwarded: forwarded).message) else { return }
        }
    }

    func answer(_ request: SSHAgentRequest?, forwarded: Bool) -> SSHAgentReply {
        switch request {
        // ssh refuses an answer of more than 2048 keys (and the whole answer with them).
        case .requestIdentities: .identities(Array(keys.identities().prefix(Self.listLimit)))
        case .sign(let blob, let data, let flags): keys.sign(keyBlob: blob, data: data, flags: flags, forwarded: forwarded).map(SSHAgentReply.signature) ?? .failure
        case .sessionBind: .success
        case .other, nil: .failure
        }
    }

    private func readMessage() -> [UInt8]? {
        guard SocketStream.waitReadable(fd, milliseconds: Self.idleSeconds * 1_000) else { return nil }
        return SSHAgentMessageIO.read(fd, seconds: Self.messageSeconds)
    }
}
