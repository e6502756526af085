import CredentialVault

struct IdentityEditCommand: Command {
    static let path = ["identity", "edit"]
    static let spec = CommandSpec(
        path: path,
        summary: "Change an identity's label, user name, or confirmation on each use.",
        overview: "Change an identity. Only the options given change; the key itself does not (add another key as an identity of its own). --confirm makes credctl's agent ask before each use of the key, through SSH_ASKPASS as ssh-add -c does; --no-confirm stops asking. Needs no unlocking. An edit that races another writer of the same identity is made again on the identity as that writer left it, up to 10 times.",
        usage: ["identity edit LABEL [--label NEW] [--user U | --no-user] [--confirm | --no-confirm]"],
        options: [
            .init(name: "--label", value: "NEW", help: "Rename the identity."),
            IdentityOptions.user,
            .init(name: "--no-user", value: nil, help: "Forget the user name."),
            IdentityOptions.confirm,
            .init(name: "--no-confirm", value: nil, help: "Use the key without asking."),
        ],
        positionals: 1...1,
        examples: ["credctl identity edit laptop --confirm", "credctl identity edit laptop --label work-laptop --no-user"],
        argument: .identities)

    let parsed: ParsedCommand

    init(_ parsed: ParsedCommand) throws {
        try parsed.exclusive("--user", "--no-user")
        try parsed.exclusive("--confirm", "--no-confirm")
        self.parsed = parsed
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let current = try vault.identity(parsed.positionals[0])
        let saved = try RacedEdit.save(current, reload: { try vault.identity(id: current.id) }, edit: edited, save: { try vault.updateIdentity($0) })
        Output.out("Updated identity '\(saved.label)'.\n")
    }

    /// `identity` with the options applied.
    private func edited(_ identity: Identity) -> Identity {
        var identity = identity
        if let label = parsed.value("--label") { identity.label = label }
        if let user = parsed.value("--user") { identity.username = user }
        if parsed.flag("--no-user") { identity.username = nil }
        if parsed.flag("--confirm") { identity.confirm = true }
        if parsed.flag("--no-confirm") { identity.confirm = false }
        return identity
    }
}
