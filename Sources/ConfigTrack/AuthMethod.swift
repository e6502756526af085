/// How a host authenticates.
public enum AuthMethod: String, Sendable, CaseIterable {
    /// A stored password.
    case password
    /// A stored private key (the host's identity).
    case publicKey = "publickey"
    /// Whatever the user's ssh-agent offers; nothing is stored.
    case agent
    /// The server asks questions; a stored password, if any, answers the first.
    case keyboardInteractive = "keyboard-interactive"
}
