import CredentialVault

struct HostShowCommand: Command {
    static let path = ["host", "show"]
    static let spec = CommandSpec(
        path: path,
        summary: "Show one host (never its password).",
        overview: "Show one host. Never prints a secret: its password is shown as stored, not synced to this device yet, deleted or quarantined (--json: password_state, with the reference key).",
        usage: ["host show LABEL [--json]"],
        options: [],
        positionals: 1...1,
        examples: ["credctl host show web-1", "credctl host show web-1 --json"],
        printsData: true,
        argument: .hosts)

    let label: String

    init(_ parsed: ParsedCommand) throws { label = parsed.positionals[0] }

    func run(_ context: Context) throws {
        let vault = try context.openVault(toRead: true)
        let host = try vault.host(label)
        let names = try RecordNames(vault)
        let forwards = try vault.forwards(forHost: host.id)
        let password = try host.passwordRef.map { try vault.credentialState($0) }
        if context.json {
            guard case .object(var fields) = RecordJSON.host(host, names: names) else { return }
            fields.append(("password_state", .optional(password?.rawValue)))
            fields.append(("forwards", .array(forwards.map { RecordJSON.forward($0, names: names) })))
            Output.json(.object(fields))
            return
        }
        var lines = [
            "Label:     \(host.label)",
            "Id:        \(CanonicalUUID.text(host.id))",
            "Address:   \(host.hostname):\(host.port)",
            "User:      \(host.username ?? "-")",
            "Auth:      \(host.authMethod.rawValue)",
            "Password:  \(password?.text ?? "none")",
            "Identity:  \(host.identityID.map(names.identity) ?? "-")",
            "Group:     \(host.groupID.map(names.group) ?? "-")",
            "Jump:      \(host.jumpHostID.map(names.host) ?? "-")",
        ]
        for rule in forwards { lines.append("Forward:   \(rule.kind.rawValue) \(rule.specification)") }
        Output.out(lines.joined(separator: "\n") + "\n")
    }
}
