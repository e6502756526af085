import CredentialVault

/// The options `host add` and `host edit` share, and how they turn into record fields.
enum HostOptions {
    static let shared: [CommandSpec.Option] = [
        .init(name: "--hostname", value: "H", help: "Host name or address to connect to."),
        .init(name: "--port", value: "N", help: "SSH port (default 22)."),
        .init(name: "--user", value: "U", help: "Remote user name."),
        .init(name: "--auth", value: "METHOD", help: "password, publickey, agent or keyboard-interactive (default: password with --password-stdin, publickey with --identity, else agent).",
              completion: .words(AuthMethod.allCases.map(\.rawValue))),
        .init(name: "--password-stdin", value: nil, help: "Read the host's password from standard input (one trailing newline is removed)."),
        .init(name: "--identity", value: "LABEL", help: "The identity (key) to authenticate with.", completion: .identities),
        .init(name: "--group", value: "LABEL", help: "The group to file the host in.", completion: .groups),
        .init(name: "--jump", value: "LABEL", help: "A host to connect through first (ssh -J).", completion: .hosts),
    ]

    static func authMethod(_ parsed: ParsedCommand) throws -> AuthMethod? {
        guard let text = parsed.value("--auth") else { return nil }
        guard let method = AuthMethod(rawValue: text) else {
            throw UsageError("--auth must be one of \(AuthMethod.allCases.map(\.rawValue).joined(separator: ", ")); not '\(text)'.", command: parsed.spec)
        }
        return method
    }

    /// Applies --identity, --group and --jump (looked up by label or id) to `host`.
    static func applyLinks(_ parsed: ParsedCommand, to host: inout Host, in vault: Vault) throws {
        if let label = parsed.value("--identity") { host.identityID = try vault.identity(label).id }
        if let label = parsed.value("--group") { host.groupID = try vault.group(label).id }
        if let label = parsed.value("--jump") { host.jumpHostID = try vault.host(label).id }
    }
}
