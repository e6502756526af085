import CredentialVault

struct ConflictsRestoreCommand: Command {
    static let spec = CommandSpec(
        path: ["conflicts", "restore"],
        overview: "Bring back a version listed by conflicts list: it becomes a new incarnation of its secret, wins over the deletion or edit it lost to, and reaches other devices with the next sync. Its host or identity must still exist. Needs the vault unlocked.",
        usage: ["conflicts restore ID"],
        options: [],
        positionals: 1...1,
        examples: ["credctl conflicts restore 3"])

    let id: Int64

    init(_ parsed: ParsedCommand) throws {
        guard let id = Int64(parsed.positionals[0]), id > 0 else {
            throw UsageError("'\(parsed.positionals[0])' is not a conflict ID; IDs are the numbers conflicts list shows.", command: Self.spec)
        }
        self.id = id
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        guard let conflict = try vault.conflicts().first(where: { $0.id == id }) else {
            throw CLIError(message: "There is no conflict \(id) on this device.", hint: "List them with: credctl conflicts list", status: ExitStatus.notFound)
        }
        let name = try ConflictText(vault: vault).secret(conflict)
        try context.unlockingIfNeeded(vault) { try vault.restoreConflict(id) }
        Output.out("Restored the \(name) as it was at \(ConflictText.time(conflict.lost.version.seconds)); it goes to other devices with the next sync.\n")
    }
}
