import KeyFormats

/// A message a client sends an ssh-agent (OpenSSH's `PROTOCOL.agent`), as far as credctl's
/// agents answer it: listing identities and signing. Every other message is `other`, answered
/// with a failure.
public enum SSHAgentRequest: Equatable, Sendable {
    case requestIdentities
    case sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32)
    /// `session-bind@openssh.com`: ssh tells the agent which server a connection is for, and
    /// whether the connection is a forwarded one (the host key and signature are not checked:
    /// the binding only ever makes a connection more restricted).
    case sessionBind(forwarding: Bool)
    case other(type: UInt8)

    static let requestIdentitiesType: UInt8 = 11
    static let signType: UInt8 = 13
    static let extensionType: UInt8 = 27
    static let sessionBind = Array("session-bind@openssh.com".utf8)

    /// The request a message (its bytes after the length) holds; nil for an empty message or a
    /// listing or signing request that breaks the format (answered with a failure too).
    public init?(message: [UInt8]) {
        guard let type = message.first else { return nil }
        guard let request = message.withUnsafeBytes({ try? Self.parse(type, UnsafeRawBufferPointer(rebasing: $0.dropFirst())) }) else { return nil }
        self = request
    }

    private static func parse(_ type: UInt8, _ body: UnsafeRawBufferPointer) throws -> SSHAgentRequest? {
        var reader = SSHWireReader(body)
        switch type {
        case requestIdentitiesType:
            return reader.isAtEnd ? .requestIdentities : nil
        case signType:
            let blob = try reader.readPublicBytes(), data = try reader.readPublicBytes(), flags = try reader.readUInt32()
            return reader.isAtEnd ? .sign(keyBlob: blob, data: data, flags: flags) : nil
        case extensionType:
            guard (try? reader.readPublicBytes()) == sessionBind else { return .other(type: type) }
            for _ in 0..<3 { _ = try reader.readString() }  // host key, session id, signature
            let forwarding = try reader.readUInt8()
            return reader.isAtEnd ? .sessionBind(forwarding: forwarding != 0) : nil
        default:
            return .other(type: type)
        }
    }

    /// The message's bytes (a client's side; the tests speak it).
    public var message: [UInt8] {
        var writer = SSHWireWriter()
        switch self {
        case .requestIdentities:
            return [Self.requestIdentitiesType]
        case .sign(let blob, let data, let flags):
            writer.string(blob)
            writer.string(data)
            writer.uint32(flags)
            return [Self.signType] + writer.bytes
        case .sessionBind(let forwarding):
            for field in [Self.sessionBind, [], [], []] { writer.string(field) }
            return [Self.extensionType] + writer.bytes + [forwarding ? 1 : 0]
        case .other(let type):
            return [type]
        }
    }
}
