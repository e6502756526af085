import CredentialVault

struct ConflictsListCommand: Command {
    static let path = ["conflicts", "list"]
    static let spec = CommandSpec(
        path: path,
        summary: "List what this device wrote that lost a merge, kept for restoring.",
        overview: "List what was written on this device and lost a merge to a change made elsewhere without knowing it: versions of secrets (an edit of a secret deleted elsewhere, or the older side of two edits made at the same time), kept sealed and never shown, and config field values (record, field, the kept value and the one that won), ids c1, c2 and so on. Each shows what it lost to, when and from which device; all are kept on this device for 90 days. Bring one back with conflicts restore ID.",
        usage: ["conflicts list [--json]"],
        options: [],
        positionals: 0...0,
        examples: ["credctl conflicts list", "credctl conflicts list --json"],
        printsData: true)

    init(_ parsed: ParsedCommand) throws {}

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let conflicts = try vault.conflicts(), fields = try vault.configConflicts()
        let text = try ConflictText(vault: vault)
        if context.json {
            Output.json(.object([("conflicts", .array(conflicts.map(text.json) + fields.map(text.json)))]))
            return
        }
        guard !conflicts.isEmpty || !fields.isEmpty else { Output.out("No conflicts: no change made on this device has lost a merge.\n"); return }
        if !conflicts.isEmpty {
            Output.out(Table.render(["ID", "SECRET", "LOST", "TO", "KEPT UNTIL"], conflicts.map { conflict in
                [String(conflict.id), text.secret(conflict), "edit made at " + ConflictText.time(conflict.lost.version.seconds), text.winner(conflict),
                 ConflictText.time(conflict.expiresAt)]
            }))
        }
        if !fields.isEmpty {
            if !conflicts.isEmpty { Output.out("\n") }
            Output.out(Table.render(["ID", "RECORD", "FIELD", "KEPT", "LOST TO", "NOW", "KEPT UNTIL"], fields.map { conflict in
                [ConflictText.id(conflict), text.record(conflict), conflict.group, text.values(conflict.kept, of: conflict), text.winner(conflict),
                 conflict.winner.map { text.values($0, of: conflict) } ?? "(removed)", ConflictText.time(conflict.expiresAt)]
            }))
        }
    }
}
