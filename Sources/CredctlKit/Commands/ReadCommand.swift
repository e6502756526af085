import CredentialVault

struct ReadCommand: Command {
    static let path = ["read"]
    static let spec = CommandSpec(
        path: path,
        summary: "Print one secret's bytes exactly, with no newline added.",
        overview: "Print one secret's bytes exactly, with no newline added. REF is a reference key (host.<uuid>.password) or a cred:// address. Refuses to print to a terminal unless --force-tty is given: pipe it instead.",
        usage: ["read REF [--force-tty]"],
        options: [.init(name: "--force-tty", value: nil, help: "Print the secret even though standard output is a terminal.")],
        positionals: 1...1,
        examples: ["credctl read cred://host/web-1/password | xclip -selection clipboard",
                   "credctl read cred://identity/deploy/privkey > /dev/shm/key", "credctl read host.3f0c1d2e-8a5b-4c6d-9e7f-0a1b2c3d4e5f.password | wc -c"],
        argument: .addresses)

    let reference: String
    let forceTerminal: Bool

    init(_ parsed: ParsedCommand) throws {
        reference = parsed.positionals[0]
        forceTerminal = parsed.flag("--force-tty")
    }

    func run(_ context: Context) throws {
        try RevealGuard.check(context, forced: forceTerminal)
        let vault = try context.openVault(toRead: true)
        let reference = try vault.reference(for: self.reference)
        Output.secret(try context.unlockingIfNeeded(vault) { try vault.readSecret(reference) })
    }
}
