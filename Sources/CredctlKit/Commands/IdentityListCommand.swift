import CredentialVault

struct IdentityListCommand: Command {
    static let path = ["identity", "list"]
    static let spec = CommandSpec(
        path: path,
        summary: "List identities.",
        overview: "List identities. Never needs unlocking.",
        usage: ["identity list [--json]"],
        options: [],
        positionals: 0...0,
        examples: ["credctl identity list"],
        printsData: true)

    init(_ parsed: ParsedCommand) throws {}

    func run(_ context: Context) throws {
        let identities = try context.openVault(toRead: true).identities()
        if context.json {
            Output.json(.object([("identities", .array(identities.map(RecordJSON.identity)))]))
            return
        }
        guard !identities.isEmpty else { Output.out("No identities.\n"); return }
        Output.out(Table.render(["LABEL", "TYPE", "USER", "PASSPHRASE", "CONFIRM"], identities.map {
            [$0.label, $0.keyType.rawValue, $0.username ?? "-", $0.passphraseRef == nil ? "-" : "stored", $0.confirm ? "yes" : "-"]
        }))
    }
}
