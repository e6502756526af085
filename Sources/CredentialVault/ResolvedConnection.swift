/// Everything needed to connect to a host, with its credential opened.
public struct ResolvedConnection: Sendable {
    public let host: Host
    public let endpoint: Endpoint
    /// Hosts to pass through first, in connection order (the first hop first), as for `ssh -J`.
    public let jumpChain: [Endpoint]
    public let forwards: [PortForwardRule]
    public let auth: ResolvedAuth
}

/// Where to connect and as whom.
public struct Endpoint: Sendable, Equatable {
    public let label: String
    public let hostname: String
    public let port: Int
    public let username: String?
}

/// A host's opened credential.
public enum ResolvedAuth: Sendable {
    case password(SecretBytes)
    case privateKey(key: SecretBytes, passphrase: SecretBytes?, identity: Identity)
    /// Use the ssh-agent; `identity`, if set, names the key to offer.
    case agent(identity: Identity?)
    /// The server asks; the stored password, if any, answers.
    case keyboardInteractive(password: SecretBytes?)

    /// The method's name as stored in config.
    public var method: AuthMethod {
        switch self {
        case .password: .password
        case .privateKey: .publicKey
        case .agent: .agent
        case .keyboardInteractive: .keyboardInteractive
        }
    }
}
