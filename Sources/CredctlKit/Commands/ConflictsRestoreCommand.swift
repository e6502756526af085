import CredentialVault

struct ConflictsRestoreCommand: Command {
    static let spec = CommandSpec(
        path: ["conflicts", "restore"],
        overview: "Bring back what conflicts list shows. A secret's version (ID as listed, a number, or s and the number) becomes a new incarnation of its secret, wins over the deletion or edit it lost to, and reaches other devices with the next sync; its host or identity must still exist, and the vault must be unlocked. A config value (c1, c2 and so on) is applied to its record again as a new edit made after seeing the one that beat it, so it wins everywhere; the record must still exist and the value must still make sense (an identity, group or jump host it names must exist).",
        usage: ["conflicts restore ID"],
        options: [],
        positionals: 1...1,
        examples: ["credctl conflicts restore 3", "credctl conflicts restore c2"])

    /// Which list the ID names: a secret's kept version, or a config field value.
    enum Target: Equatable {
        case secret(Int64)
        case config(Int64)
    }

    let target: Target

    init(_ parsed: ParsedCommand) throws {
        let text = parsed.positionals[0]
        let number = Int64(text.first == "c" || text.first == "s" ? String(text.dropFirst()) : text).flatMap { $0 > 0 ? $0 : nil }
        guard let number else {
            throw UsageError("'\(text)' is not a conflict ID; IDs are what conflicts list shows (3, s3 or c2).", command: Self.spec)
        }
        target = text.first == "c" ? .config(number) : .secret(number)
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let text = try ConflictText(vault: vault)
        switch target {
        case .config(let id):
            guard let conflict = try vault.configConflicts().first(where: { $0.id == id }) else {
                throw CLIError(message: "There is no conflict c\(id) on this device.", hint: "List them with: credctl conflicts list", status: ExitStatus.notFound)
            }
            let record = text.record(conflict)
            try vault.restoreConfigConflict(id)
            Output.out("Restored the \(conflict.group) of \(record) (\(text.values(conflict.kept, of: conflict))); it goes to other devices with the next sync.\n")
        case .secret(let id):
            guard let conflict = try vault.conflicts().first(where: { $0.id == id }) else {
                throw CLIError(message: "There is no conflict \(id) on this device.", hint: "List them with: credctl conflicts list", status: ExitStatus.notFound)
            }
            let name = text.secret(conflict)
            try context.unlockingIfNeeded(vault) { try vault.restoreConflict(id) }
            Output.out("Restored the \(name) as it was at \(ConflictText.time(conflict.lost.version.seconds)); it goes to other devices with the next sync.\n")
        }
    }
}
