import CredentialVault

struct HostRemoveCommand: Command {
    static let path = ["host", "rm"]
    static let spec = CommandSpec(
        path: path,
        summary: "Remove a host, its port forwards and its stored password.",
        overview: "Remove a host, its port forwards and its stored password. The password leaves a deletion marker so no later delivery can bring it back. Needs no unlocking.",
        usage: ["host rm LABEL"],
        options: [],
        positionals: 1...1,
        examples: ["credctl host rm web-1"],
        argument: .hosts)

    let label: String

    init(_ parsed: ParsedCommand) throws { label = parsed.positionals[0] }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let host = try vault.host(label)
        try vault.removeHost(CanonicalUUID.text(host.id))
        Output.out("Removed host '\(host.label)'.\n")
    }
}
