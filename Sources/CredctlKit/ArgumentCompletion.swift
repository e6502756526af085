/// What a shell offers, when completing, for a command's argument or an option's value.
enum ArgumentCompletion: Sendable, Equatable {
    /// Host labels, read from the vault at completion time.
    case hosts
    case identities
    case groups
    /// The `cred://` addresses of the secrets the vault holds (`cred://host/LABEL/password`, …).
    case addresses
    /// A fixed set of words (`bash zsh fish`).
    case words([String])

    /// The word `credctl __complete` takes to list these; nil for what the script itself knows.
    var listing: String? {
        switch self {
        case .hosts: "hosts"
        case .identities: "identities"
        case .groups: "groups"
        case .addresses: "addresses"
        case .words: nil
        }
    }

    /// Every listing `credctl __complete` serves.
    static let listings: [ArgumentCompletion] = [.hosts, .identities, .groups, .addresses]
}
