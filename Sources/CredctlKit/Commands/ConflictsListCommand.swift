import CredentialVault

struct ConflictsListCommand: Command {
    static let spec = CommandSpec(
        path: ["conflicts", "list"],
        overview: "List versions of secrets made on this device that lost a merge (an edit of a secret deleted elsewhere, or the older side of two edits made at the same time): what lost, to what, when and from which device. They are kept sealed on this device for 90 days; bring one back with conflicts restore ID. Never shows a secret.",
        usage: ["conflicts list [--json]"],
        options: [],
        positionals: 0...0,
        examples: ["credctl conflicts list", "credctl conflicts list --json"],
        printsData: true)

    init(_ parsed: ParsedCommand) throws {}

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let conflicts = try vault.conflicts()
        let text = try ConflictText(vault: vault)
        if context.json {
            Output.json(.object([("conflicts", .array(conflicts.map { conflict in
                .object([("id", .int(Int(conflict.id))), ("reference", .string(conflict.lost.reference)), ("secret", .string(text.secret(conflict))),
                         ("lost_version_time", .int(Int(conflict.lost.version.seconds))), ("lost_incarnation", .int(Int(conflict.lost.incarnation))),
                         ("winner", .object([("deleted", .bool(conflict.winnerDeleted)), ("device", .string(conflict.winner.device)),
                                             ("device_name", .string(text.device(conflict.winner.device))), ("time", .int(Int(conflict.winner.seconds)))])),
                         ("kept_at", .int(Int(conflict.recordedAt))), ("expires_at", .int(Int(conflict.expiresAt)))])
            }))]))
            return
        }
        guard !conflicts.isEmpty else { Output.out("No conflicts: no change made on this device has lost a merge.\n"); return }
        Output.out(Table.render(["ID", "SECRET", "LOST", "TO", "KEPT UNTIL"], conflicts.map { conflict in
            [String(conflict.id), text.secret(conflict), "edit made at " + ConflictText.time(conflict.lost.version.seconds), text.winner(conflict),
             ConflictText.time(conflict.expiresAt)]
        }))
    }
}
