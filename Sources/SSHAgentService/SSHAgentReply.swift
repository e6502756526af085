import KeyFormats

/// What credctl's agents answer an ssh-agent client (OpenSSH's `PROTOCOL.agent`).
public enum SSHAgentReply: Equatable, Sendable {
    case failure
    case success
    case identities([SSHAgentIdentity])
    /// A signature blob: string algorithm, string signature.
    case signature([UInt8])

    /// The message's bytes, after the length.
    public var message: [UInt8] {
        var writer = SSHWireWriter()
        switch self {
        case .failure:
            return [5]
        case .success:
            return [6]
        case .identities(let identities):
            writer.uint32(UInt32(identities.count))
            for identity in identities {
                writer.string(identity.keyBlob)
                writer.string(identity.comment)
            }
            return [12] + writer.bytes
        case .signature(let blob):
            writer.string(blob)
            return [14] + writer.bytes
        }
    }

    /// The reply a message holds (a client's side, and an upstream agent's answer).
    public init?(message: [UInt8]) {
        guard let type = message.first else { return nil }
        guard let reply = message.withUnsafeBytes({ try? Self.parse(type, UnsafeRawBufferPointer(rebasing: $0.dropFirst())) }) else { return nil }
        self = reply
    }

    private static func parse(_ type: UInt8, _ body: UnsafeRawBufferPointer) throws -> SSHAgentReply? {
        var reader = SSHWireReader(body)
        switch type {
        case 5 where reader.isAtEnd:
            return .failure
        case 6 where reader.isAtEnd:
            return .success
        case 12:
            // Each listed key takes at least 8 bytes: a count past what the message can hold is
            // refused before anything is read (an upstream agent is another program).
            let count = try reader.readUInt32()
            guard count <= 4_096, Int(count) * 8 <= reader.remaining else { return nil }
            var identities: [SSHAgentIdentity] = []
            for _ in 0..<count {
                let blob = try reader.readPublicBytes()
                identities.append(SSHAgentIdentity(keyBlob: blob, comment: String(decoding: try reader.readString(), as: UTF8.self)))
            }
            return reader.isAtEnd ? .identities(identities) : nil
        case 14:
            let blob = try reader.readPublicBytes()
            return reader.isAtEnd ? .signature(blob) : nil
        default:
            return nil
        }
    }
}
