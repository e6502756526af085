/// What importing one Host of an ssh_config did, or would do.
public struct SSHConfigImportEntry: Sendable, Equatable {
    public enum Action: String, Sendable {
        case created
        case updated
        case unchanged
        case skipped
    }

    /// The Host alias (or the patterns of a block that names no single host).
    public let name: String
    public let action: Action
    /// `user@hostname:port` as imported.
    public let endpoint: String?
    /// What was left out, and why (ProxyCommand never run, a missing key file, …).
    public let notes: [String]
    /// Whether a private key is sealed for this host (so the import needs the vault unlocked).
    public let importsKey: Bool
}
