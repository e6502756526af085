import CredentialVault
import Glibc

struct ImportSSHConfigCommand: Command {
    static let spec = CommandSpec(
        path: ["import", "ssh-config"],
        overview: "Import the Host blocks of an ssh_config file (default ~/.ssh/config, its Include lines followed) as hosts: HostName, Port, User, ProxyJump (linked to the host of that name), LocalForward, RemoteForward and DynamicForward, with what ssh would use for each host (settings of Host * and other pattern blocks that match it included). IdentityFile keys become identities, their private keys sealed in the vault (a key already there is reused). Pattern-only blocks and Match blocks are listed and skipped; ProxyCommand, LocalCommand and anything else that executes is never run nor imported. Importing again updates the hosts of the same name instead of duplicating them. --dry-run shows the plan and changes nothing.",
        usage: ["import ssh-config [FILE] [--dry-run] [--json]"],
        options: [.init(name: "--dry-run", value: nil, help: "Show what would be imported; change nothing.")],
        positionals: 0...1,
        examples: ["credctl import ssh-config --dry-run", "credctl import ssh-config ~/.ssh/config.d/work"],
        printsData: true)

    let file: String?
    let dryRun: Bool

    init(_ parsed: ParsedCommand) throws {
        file = parsed.positionals.first
        dryRun = parsed.flag("--dry-run")
    }

    func run(_ context: Context) throws {
        let home = context.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        let path = file ?? home + "/.ssh/config"
        let user = getpwuid(getuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? context.environment["USER"] ?? "root"
        let vault = try context.openVault()
        // The plan first: the vault is unlocked only when a key is to be sealed, and then before
        // anything is written, so the report is the one of a single pass.
        var entries = try vault.importSSHConfig(path: path, home: home, localUser: user, dryRun: true)
        if !dryRun {
            if entries.contains(where: { $0.importsKey }) && !vault.isUnlocked { try context.unlock(vault) }
            entries = try vault.importSSHConfig(path: path, home: home, localUser: user, dryRun: false)
        }
        if context.json {
            Output.json(.object([
                ("dry_run", .bool(dryRun)), ("file", .string(path)),
                ("hosts", .array(entries.map { entry in
                    .object([("name", .string(entry.name)), ("action", .string(entry.action.rawValue)), ("endpoint", .optional(entry.endpoint)),
                             ("notes", .array(entry.notes.map(JSONValue.string)))])
                })),
            ]))
            return
        }
        guard !entries.isEmpty else { return Output.out("\(path) names no host.\n") }
        Output.out(Table.render(["ACTION", "HOST", "ENDPOINT"], entries.map { entry in
            [text(entry.action), CanonicalUUID.printable(entry.name), entry.endpoint ?? "-"]
        }))
        let notes = entries.flatMap { entry in entry.notes.map { "  \(CanonicalUUID.printable(entry.name)): \(Self.printable($0))" } }
        if !notes.isEmpty { Output.out("Notes:\n" + notes.joined(separator: "\n") + "\n") }
    }

    /// Text from the file, shown whole, with characters that could rewrite the terminal line as '?'.
    private static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format ? "?" : $0 }))
    }

    private func text(_ action: SSHConfigImportEntry.Action) -> String {
        switch action {
        case .created: dryRun ? "would create" : "created"
        case .updated: dryRun ? "would update" : "updated"
        case .unchanged: "unchanged"
        case .skipped: "skipped"
        }
    }
}
