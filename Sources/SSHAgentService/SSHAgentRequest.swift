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
        var reader = SSHWire.Reader(message[1...])
        switch type {
        case Self.requestIdentitiesType:
            guard reader.isAtEnd else { return nil }
            self = .requestIdentities
        case Self.signType:
            guard let blob = reader.string(), let data = reader.string(), let flags = reader.uint32(), reader.isAtEnd else { return nil }
            self = .sign(keyBlob: blob, data: data, flags: flags)
        case Self.extensionType:
            guard reader.string() == Self.sessionBind else { self = .other(type: type); return }
            guard reader.string() != nil, reader.string() != nil, reader.string() != nil, let forwarding = reader.byte(), reader.isAtEnd else { return nil }
            self = .sessionBind(forwarding: forwarding != 0)
        default:
            self = .other(type: type)
        }
    }

    /// The message's bytes (a client's side; the tests speak it).
    public var message: [UInt8] {
        switch self {
        case .requestIdentities: [Self.requestIdentitiesType]
        case .sign(let blob, let data, let flags): [Self.signType] + SSHWire.string(blob) + SSHWire.string(data) + SSHWire.uint32(flags)
        case .sessionBind(let forwarding):
            [Self.extensionType] + SSHWire.string(Self.sessionBind) + SSHWire.string([]) + SSHWire.string([]) + SSHWire.string([]) + [forwarding ? 1 : 0]
        case .other(let type): [type]
        }
    }
}
