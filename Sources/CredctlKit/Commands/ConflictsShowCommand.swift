import CredentialVault

struct ConflictsShowCommand: Command {
    static let path = ["conflicts", "show"]
    static let spec = CommandSpec(
        path: path,
        summary: "Show one entry of conflicts list in full.",
        overview: "Show one entry of conflicts list in full: what was kept, what it lost to, from which device and when. With --reveal, a kept secret version is printed instead, its bytes exactly, under the rules of read: refused onto a terminal unless --force-tty is given, and the vault must be unlocked. A config value (c1, c2 and so on) holds no secret to reveal.",
        usage: ["conflicts show ID [--json]", "conflicts show ID --reveal [--force-tty]"],
        options: [.init(name: "--reveal", value: nil, help: "Print the kept secret version's bytes (as read does)."),
                  .init(name: "--force-tty", value: nil, help: "With --reveal: print even though standard output is a terminal.")],
        positionals: 1...1,
        examples: ["credctl conflicts show c2", "credctl conflicts show 3 --reveal | xclip -selection clipboard"],
        printsData: true)

    let target: ConflictID
    let reveal: Bool
    let forceTerminal: Bool

    init(_ parsed: ParsedCommand) throws {
        guard let target = ConflictID(parsed.positionals[0]) else { throw ConflictID.usage(parsed.positionals[0], command: Self.spec) }
        self.target = target
        reveal = parsed.flag("--reveal")
        forceTerminal = parsed.flag("--force-tty")
        if forceTerminal && !reveal { throw UsageError("--force-tty only goes with --reveal.", command: Self.spec) }
        if reveal, case .config = target { throw UsageError("\(target) is a config value; it holds no secret to reveal.", command: Self.spec) }
    }

    func run(_ context: Context) throws {
        if reveal { try RevealGuard.check(context, forced: forceTerminal) }
        let vault = try context.openVault()
        let text = try ConflictText(vault: vault)
        let missing = CLIError(message: "There is no conflict \(target) on this device.", hint: "List them with: credctl conflicts list", status: ExitStatus.notFound)
        switch target {
        case .secret(let id):
            guard let conflict = try vault.conflicts().first(where: { $0.id == id }) else { throw missing }
            if reveal { return Output.secret(try context.unlockingIfNeeded(vault) { try vault.revealConflict(id) }) }
            if context.json { return Output.json(text.json(conflict)) }
            Output.out(Self.lines([("Conflict", String(id)), ("Secret", text.secret(conflict)),
                                   ("Lost", "edit made on this device at " + ConflictText.time(conflict.lost.version.seconds)),
                                   ("To", text.winner(conflict)), ("Kept until", ConflictText.time(conflict.expiresAt)),
                                   ("Reveal", "credctl conflicts show \(id) --reveal"), ("Restore", "credctl conflicts restore \(id)")]))
        case .config(let id):
            guard let conflict = try vault.configConflict(id: id) else { throw missing }
            if context.json { return Output.json(text.json(conflict)) }
            Output.out(Self.lines([("Conflict", ConflictText.id(conflict)), ("Record", text.record(conflict)), ("Field", conflict.group),
                                   ("Kept", text.values(conflict.kept, of: conflict)),
                                   ("Written", "on this device at " + ConflictText.time(conflict.keptVersion.seconds)),
                                   ("Lost to", text.winner(conflict)), ("Now", conflict.winner.map { text.values($0, of: conflict) } ?? "(removed)"),
                                   ("Kept until", ConflictText.time(conflict.expiresAt)), ("Restore", "credctl conflicts restore \(ConflictText.id(conflict))")]))
        }
    }

    private static func lines(_ pairs: [(String, String)]) -> String {
        let width = pairs.map(\.0.count).max() ?? 0
        // Each value escaped on its own, so a line break in it cannot start a line of its own.
        return pairs.map { ($0.0 + ":").padding(width + 2) + TerminalText.inert($0.1) }.joined(separator: "\n") + "\n"
    }
}
