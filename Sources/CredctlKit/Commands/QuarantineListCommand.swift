import CredentialVault

struct QuarantineListCommand: Command {
    static let spec = CommandSpec(
        path: ["quarantine", "list"],
        overview: "List what sync received but could not apply (a newer format, a damaged or foreign object), with the reason. Quarantined data is kept, never applied, and never blocks other records.",
        usage: ["quarantine list [--json]"],
        options: [],
        positionals: 0...0,
        examples: ["credctl quarantine list", "credctl quarantine list --json"],
        printsData: true)

    init(_ parsed: ParsedCommand) throws {}

    func run(_ context: Context) throws {
        let entries = try context.openVault().quarantine()
        if context.json {
            Output.json(.object([("quarantined", .array(entries.map { entry in
                .object([("zone", .string(entry.zone)), ("name", .string(entry.recordName)), ("reason", .string(entry.reason)), ("bytes", .int(entry.size))])
            }))]))
            return
        }
        guard !entries.isEmpty else { Output.out("Nothing is quarantined.\n"); return }
        Output.out(Table.render(["ZONE", "NAME", "BYTES", "REASON"], entries.map { [$0.zone, $0.recordName, String($0.size), $0.reason] }))
    }
}
