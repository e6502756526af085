/// What the user supplies to unlock a vault on this device.
public enum UnlockKey: Sendable {
    /// A passphrase (stretched with Argon2id).
    case passphrase(SecretBytes)
    /// A key file; `Vault.create` makes one (mode 0600, random) if nothing exists at the path.
    case keyFile(path: String)
    /// A key file's contents, read already (by a client of the agent, which holds none of it).
    case keyFileContents(SecretBytes)
}
