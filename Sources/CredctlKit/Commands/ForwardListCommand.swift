import CredentialVault

struct ForwardListCommand: Command {
    static let path = ["forward", "list"]
    static let spec = CommandSpec(
        path: path,
        summary: "List port forwards, of all hosts or of one.",
        overview: "List port forwards, of all hosts or of one.",
        usage: ["forward list [HOST_LABEL] [--json]"],
        options: [],
        positionals: 0...1,
        examples: ["credctl forward list", "credctl forward list web-1 --json"],
        printsData: true,
        argument: .hosts)

    let hostLabel: String?

    init(_ parsed: ParsedCommand) throws { hostLabel = parsed.positionals.first }

    func run(_ context: Context) throws {
        let vault = try context.openVault(toRead: true)
        let rules = try vault.forwards(forHost: try hostLabel.map { try vault.host($0).id })
        let names = try RecordNames(vault)
        if context.json {
            Output.json(.object([("forwards", .array(rules.map { RecordJSON.forward($0, names: names) }))]))
            return
        }
        guard !rules.isEmpty else { Output.out("No port forwards.\n"); return }
        Output.out(Table.render(["ID", "HOST", "KIND", "SPEC"], rules.map {
            [CanonicalUUID.text($0.id), names.host($0.hostID), $0.kind.rawValue, $0.specification]
        }))
    }
}
