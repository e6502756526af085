/// What credctl's agents answer an ssh-agent client (OpenSSH's `PROTOCOL.agent`).
public enum SSHAgentReply: Equatable, Sendable {
    case failure
    case success
    case identities([SSHAgentIdentity])
    /// A signature blob: string algorithm, string signature.
    case signature([UInt8])

    /// The message's bytes, after the length.
    public var message: [UInt8] {
        switch self {
        case .failure:
            return [5]
        case .success:
            return [6]
        case .identities(let identities):
            var bytes: [UInt8] = [12] + SSHWire.uint32(UInt32(identities.count))
            for identity in identities { bytes += SSHWire.string(identity.keyBlob) + SSHWire.string(Array(identity.comment.utf8)) }
            return bytes
        case .signature(let blob):
            return [14] + SSHWire.string(blob)
        }
    }

    /// The reply a message holds (a client's side; the tests read it).
    public init?(message: [UInt8]) {
        guard let type = message.first else { return nil }
        var reader = SSHWire.Reader(message[1...])
        switch type {
        case 5 where reader.isAtEnd:
            self = .failure
        case 6 where reader.isAtEnd:
            self = .success
        case 12:
            guard let count = reader.uint32(), count <= 4_096 else { return nil }
            var identities: [SSHAgentIdentity] = []
            for _ in 0..<count {
                guard let blob = reader.string(), let comment = reader.string() else { return nil }
                identities.append(SSHAgentIdentity(keyBlob: blob, comment: String(decoding: comment, as: UTF8.self)))
            }
            guard reader.isAtEnd else { return nil }
            self = .identities(identities)
        case 14:
            guard let blob = reader.string(), reader.isAtEnd else { return nil }
            self = .signature(blob)
        default:
            return nil
        }
    }
}
