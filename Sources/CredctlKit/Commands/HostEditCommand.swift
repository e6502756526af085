import CredentialVault

struct HostEditCommand: Command {
    static let path = ["host", "edit"]
    static let spec = CommandSpec(
        path: path,
        summary: "Change a host.",
        overview: "Change a host. Only the options given change. --password-stdin replaces the password; --no-password removes it (leaving a deletion marker); --auth password on a host without a password asks for one on the terminal (refused without one). An edit that races another writer of the same host is made again on the host as that writer left it, up to 10 times.",
        usage: ["host edit LABEL [--label NEW] [--hostname H] [--port N] [--user U] [--auth METHOD] [--password-stdin | --no-password]",
                "                [--identity LABEL | --no-identity] [--group LABEL | --no-group] [--jump LABEL | --no-jump] [--no-user]"],
        options: HostOptions.shared + [
            .init(name: "--label", value: "NEW", help: "Rename the host."),
            .init(name: "--no-password", value: nil, help: "Remove the stored password."),
            .init(name: "--no-user", value: nil, help: "Forget the user name."),
            .init(name: "--no-identity", value: nil, help: "Forget the identity."),
            .init(name: "--no-group", value: nil, help: "Move the host to the top level."),
            .init(name: "--no-jump", value: nil, help: "Connect directly."),
        ],
        positionals: 1...1,
        examples: ["credctl host edit web-1 --port 2222", "printf %s \"$NEW_PW\" | credctl host edit web-1 --password-stdin", "credctl host edit web-1 --no-password --auth agent"],
        argument: .hosts)

    let parsed: ParsedCommand
    let port: Int?
    let auth: AuthMethod?

    init(_ parsed: ParsedCommand) throws {
        try parsed.exclusive("--password-stdin", "--no-password")
        try parsed.exclusive("--user", "--no-user")
        try parsed.exclusive("--identity", "--no-identity")
        try parsed.exclusive("--group", "--no-group")
        try parsed.exclusive("--jump", "--no-jump")
        self.parsed = parsed
        port = try parsed.integer("--port")
        auth = try HostOptions.authMethod(parsed)
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let current = try vault.host(parsed.positionals[0])
        let needsOne = auth == .password && current.passwordRef == nil && !parsed.flag("--no-password")
        let password = try HostPassword.read(parsed, label: current.label, needsOne: needsOne)
        if password != nil { try context.unlockForWriting(vault) }
        let change: PasswordChange = if let password { .set(password) } else if parsed.flag("--no-password") { .clear } else { .keep }
        let saved = try RacedEdit.save(current, reload: { try vault.host(id: current.id) }, edit: { try edited($0, in: vault) },
                                       save: { try vault.updateHost($0, password: change) })
        Output.out("Updated host '\(saved.label)'.\n")
        // Say so when the method and the stored credential no longer fit together.
        if saved.authMethod == .password && saved.passwordRef == nil {
            Output.err("credctl: warning: host '\(saved.label)' uses password authentication but has no password stored.\n")
        } else if (saved.authMethod == .agent || saved.authMethod == .publicKey) && saved.passwordRef != nil {
            Output.err("credctl: warning: host '\(saved.label)' uses \(saved.authMethod.rawValue) authentication; its stored password is not used (see --auth).\n")
        }
    }

    /// `host` with the options applied.
    private func edited(_ host: Host, in vault: Vault) throws -> Host {
        var host = host
        if let label = parsed.value("--label") { host.label = label }
        if let hostname = parsed.value("--hostname") { host.hostname = hostname }
        if let port { host.port = port }
        if let user = parsed.value("--user") { host.username = user }
        if parsed.flag("--no-user") { host.username = nil }
        if parsed.flag("--no-identity") { host.identityID = nil }
        if parsed.flag("--no-group") { host.groupID = nil }
        if parsed.flag("--no-jump") { host.jumpHostID = nil }
        try HostOptions.applyLinks(parsed, to: &host, in: vault)
        if let auth { host.authMethod = auth }
        return host
    }
}
