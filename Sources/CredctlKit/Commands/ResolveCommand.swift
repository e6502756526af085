import CredentialVault

struct ResolveCommand: Command {
    static let path = ["resolve"]
    static let spec = CommandSpec(
        path: path,
        summary: "Show how to reach a host: address, user, jump hosts, forwards and auth.",
        overview: "Resolve a host into its connection parameters: address, user, jump hosts, forwards and authentication. The credential is checked (so a missing or deleted one is reported) but printed only with --reveal.",
        usage: ["resolve LABEL [--json] [--reveal [--force-tty]]"],
        options: [
            .init(name: "--reveal", value: nil, help: "Also print the secret (password, or private key and passphrase)."),
            .init(name: "--force-tty", value: nil, help: "With --reveal, print even though standard output is a terminal."),
        ],
        positionals: 1...1,
        examples: ["credctl resolve web-1", "credctl resolve web-1 --json", "credctl resolve web-1 --json --reveal | jq -r .auth.secret"],
        printsData: true,
        argument: .hosts)

    let label: String
    let reveal: Bool
    let forceTerminal: Bool

    init(_ parsed: ParsedCommand) throws {
        label = parsed.positionals[0]
        reveal = parsed.flag("--reveal")
        forceTerminal = parsed.flag("--force-tty")
    }

    func run(_ context: Context) throws {
        if reveal { try RevealGuard.check(context, forced: forceTerminal) }
        let vault = try context.openVault(toRead: true)
        let connection = try context.unlockingIfNeeded(vault) { try vault.resolve(label) }
        if context.json {
            Output.json(ResolvedJSON.render(connection, reveal: reveal))
        } else {
            Output.out(ResolvedText.render(connection, reveal: reveal))
        }
    }
}
