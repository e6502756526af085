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
