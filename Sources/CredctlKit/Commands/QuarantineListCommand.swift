import CredentialVault

struct QuarantineListCommand: Command {
    static let path = ["quarantine", "list"]
    static let spec = CommandSpec(
        path: path,
        summary: "List what sync received but could not apply, with the reason.",
        overview: "List what sync received but could not apply (a newer format, a damaged or foreign object), with the reason and an ID. Quarantined data is kept, never blocks other records, and is never applied, except what a newer credctl wrote: every sync tries that again, so an upgrade applies it. Drop an entry with quarantine discard ID.",
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
                .object([("id", .string("\(entry.zone)/\(entry.id)")), ("zone", .string(entry.zone)), ("name", .string(entry.recordName)),
                         ("reason", .string(entry.reason)), ("bytes", .int(entry.size)), ("awaits_upgrade", .bool(entry.awaitsUpgrade))])
            }))]))
            return
        }
        guard !entries.isEmpty else { Output.out("Nothing is quarantined.\n"); return }
        Output.out(Table.render(["ID", "NAME", "BYTES", "REASON"], entries.map { entry in
            ["\(entry.zone)/\(entry.id)", entry.recordName, String(entry.size), entry.reason + (entry.awaitsUpgrade ? " (applies after an upgrade)" : "")]
        }))
    }
}
