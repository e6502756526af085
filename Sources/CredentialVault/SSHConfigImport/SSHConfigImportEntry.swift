/// What importing one host name of an ssh_config did, or would do.
public struct SSHConfigImportEntry: Sendable, Equatable {
    public enum Action: String, Sendable {
        case created
        case updated
        case unchanged
        case skipped
    }

    /// The host's label: a Host name, a jump host made for a ProxyJump, or the patterns of a
    /// block that names no single host.
    public let name: String
    public internal(set) var action: Action
    /// `user@hostname:port` as imported.
    public let endpoint: String?
    /// What is worth knowing and changes nothing: a key imported as an identity, a jump host
    /// made for a ProxyJump, a pattern block's settings reaching the hosts it matches. With
    /// `skipUnsupported`, also what was left out (the problems).
    public internal(set) var notes: [String]
    /// What the file says for this host that the vault cannot hold (a ProxyCommand, a User
    /// credctl refuses, a missing key file, a ProxyJump that cannot be linked, …). Without
    /// `skipUnsupported`, any problem in a file stops its whole import: nothing is written.
    public internal(set) var problems: [String]
    /// Whether a private key is sealed for this host (so the import needs the vault unlocked).
    public let importsKey: Bool

    init(name: String, action: Action, endpoint: String? = nil, notes: [String] = [], problems: [String] = [], importsKey: Bool = false) {
        self.name = name
        self.action = action
        self.endpoint = endpoint
        self.notes = notes
        self.problems = problems
        self.importsKey = importsKey
    }
}
