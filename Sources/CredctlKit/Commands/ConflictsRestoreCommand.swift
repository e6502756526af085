import CredentialVault

struct ConflictsRestoreCommand: Command {
    static let path = ["conflicts", "restore"]
    static let spec = CommandSpec(
        path: path,
        summary: "Bring back what conflicts list shows.",
        overview: "Bring back what conflicts list shows. A secret's version (ID as listed, a number, or s and the number) becomes a new incarnation of its secret, wins over the deletion or edit it lost to, and reaches other devices with the next sync; a removed host comes back with it (when its label is free and what it names exists), a removed identity does not; the vault must be unlocked. A config value (c1, c2 and so on) is applied to its record again as a new edit made after seeing the one that beat it, so it wins everywhere; the record must still exist and the value must still make sense (an identity, group or jump host it names must exist).",
        usage: ["conflicts restore ID"],
        options: [],
        positionals: 1...1,
        examples: ["credctl conflicts restore 3", "credctl conflicts restore c2"])

    let target: ConflictID

    init(_ parsed: ParsedCommand) throws {
        guard let target = ConflictID(parsed.positionals[0]) else { throw ConflictID.usage(parsed.positionals[0], command: Self.spec) }
        self.target = target
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let text = try ConflictText(vault: vault)
        switch target {
        case .config(let id):
            guard let conflict = try vault.configConflict(id: id) else {
                throw CLIError(message: "There is no conflict c\(id) on this device.", hint: "List them with: credctl conflicts list", status: ExitStatus.notFound)
            }
            let record = text.record(conflict)
            try vault.restoreConfigConflict(id)
            Output.out("Restored the \(conflict.group) of \(record) (\(text.values(conflict.kept, of: conflict))); it goes to other devices with the next sync.\n")
        case .secret(let id):
            guard let conflict = try vault.conflicts().first(where: { $0.id == id }) else {
                throw CLIError(message: "There is no conflict \(id) on this device.", hint: "List them with: credctl conflicts list", status: ExitStatus.notFound)
            }
            try context.unlockingIfNeeded(vault) { try vault.restoreConflict(id) }
            // Named after the restore: a removed host is back by then.
            let name = text.secret(conflict)
            Output.out("Restored the \(name) as it was at \(ConflictText.time(conflict.lost.version.seconds)); it goes to other devices with the next sync.\n")
        }
    }
}
