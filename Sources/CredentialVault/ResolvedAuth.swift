/// A host's opened credential.
public enum ResolvedAuth: Sendable {
    case password(SecretBytes)
    case privateKey(key: SecretBytes, passphrase: SecretBytes?, identity: Identity)
    /// Public-key authentication with a key left in the vault (its body is here, unopened): a
    /// credctl agent signs with it (`resolve(_:openingPrivateKeys: false)`).
    case keyInVault(identity: Identity)
    /// Use the ssh-agent; `identity`, if set, names the key to offer.
    case agent(identity: Identity?)
    /// The server asks; the stored password, if any, answers.
    case keyboardInteractive(password: SecretBytes?)

    /// The method's name as stored in config.
    public var method: AuthMethod {
        switch self {
        case .password: .password
        case .privateKey, .keyInVault: .publicKey
        case .agent: .agent
        case .keyboardInteractive: .keyboardInteractive
        }
    }
}
