import CredentialVault
import Glibc

struct ImportSSHConfigCommand: Command {
    static let path = ["import", "ssh-config"]
    static let spec = CommandSpec(
        path: path,
        summary: "Import the Host blocks of an ssh_config file (default ~/.ssh/config).",
        overview: """
            Import the Host blocks of an ssh_config file (default ~/.ssh/config, its Include lines followed) as hosts. Every name of a Host line that is not a pattern becomes a host, with what ssh would use for that name (settings of Host * and other pattern blocks that match it included, %h and a missing HostName standing for that name): HostName, Port, User, ProxyJump, LocalForward, RemoteForward and DynamicForward. IdentityFile keys become identities, their private keys sealed in the vault (a key already there is reused). \
            ProxyJump links to the host of that name in the file or the vault (one that is neither is made from what the file gives for that name); each hop of a list (ProxyJump a,b,c) is reached through the one before it. A hop that needs another user or port than the named host's, or other hops before it than the named host's own jump host, gets a jump host of its own, copying the named host's settings (never its password), labelled NAME-USER-PORT with only the parts that differ (main-ops, main-2201) and NAME-via-PREVIOUS when reached through another hop (c-via-b); importing again finds it by its label. \
            Nothing that executes (ProxyCommand, LocalCommand, KnownHostsCommand, RemoteCommand, PKCS11Provider, SecurityKeyProvider) is ever run. Whatever the vault cannot hold is a problem of its host: those settings, a HostName, Port, User, IdentityFile, forward or ProxyJump credctl cannot take, a second IdentityFile, a Match block, a Host block included inside another block. The whole file is planned first: with a problem, nothing is imported and the exit status is 65; --skip-unsupported imports the rest (a host without the settings it cannot take, or skipped when it cannot be imported at all) and lists the problems as notes. Pattern-only blocks are listed, not imported (their settings reach the hosts they match); other keywords, such as ServerAliveInterval, are ignored. Importing again updates the hosts of the same name instead of duplicating them. --dry-run shows the plan, problems included, and changes nothing.
            """,
        usage: ["import ssh-config [FILE] [--dry-run] [--skip-unsupported] [--json]"],
        options: [.init(name: "--dry-run", value: nil, help: "Show what would be imported; change nothing."),
                  .init(name: "--skip-unsupported", value: nil, help: "Import what credctl can hold and list the rest as notes, instead of importing nothing.")],
        positionals: 0...1,
        examples: ["credctl import ssh-config --dry-run", "credctl import ssh-config ~/.ssh/config.d/work",
                   "credctl import ssh-config --skip-unsupported"],
        printsData: true)

    let file: String?
    let dryRun: Bool
    let skipUnsupported: Bool

    init(_ parsed: ParsedCommand) throws {
        file = parsed.positionals.first
        dryRun = parsed.flag("--dry-run")
        skipUnsupported = parsed.flag("--skip-unsupported")
    }

    func run(_ context: Context) throws {
        let home = context.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        let path = file ?? home + "/.ssh/config"
        let user = getpwuid(getuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? context.environment["USER"] ?? "root"
        let vault = try context.openVault()
        // The plan first: the vault is unlocked only when a key is to be sealed, and then before
        // anything is written, so the report is the one of a single pass.
        var entries = try vault.importSSHConfig(path: path, home: home, localUser: user, dryRun: true, skipUnsupported: skipUnsupported)
        if !dryRun && entries.allSatisfy(\.problems.isEmpty) {
            if entries.contains(where: { $0.importsKey }) && !vault.isUnlocked { try context.unlock(vault) }
            entries = try vault.importSSHConfig(path: path, home: home, localUser: user, dryRun: false, skipUnsupported: skipUnsupported)
        }
        // The import plans again before writing: a file changed meanwhile may have problems now.
        let refused = entries.filter { !$0.problems.isEmpty }
        let imported = !dryRun && refused.isEmpty
        if context.json {
            Output.json(.object([
                ("dry_run", .bool(dryRun)), ("file", .string(path)), ("imported", .bool(imported)),
                ("hosts", .array(entries.map { entry in
                    .object([("name", .string(entry.name)), ("action", .string(entry.action.rawValue)), ("endpoint", .optional(entry.endpoint)),
                             ("notes", .array(entry.notes.map(JSONValue.string))), ("problems", .array(entry.problems.map(JSONValue.string)))])
                })),
            ]))
        } else if entries.isEmpty {
            Output.out("\(path) names no host.\n")
        } else {
            Output.out(Table.render(["ACTION", "HOST", "ENDPOINT"], entries.map { entry in
                [text(entry.action, written: imported), CanonicalUUID.printable(entry.name), entry.endpoint ?? "-"]
            }))
            Output.out(Self.section("Problems", entries.map { ($0.name, $0.problems) }) + Self.section("Notes", entries.map { ($0.name, $0.notes) }))
        }
        guard refused.isEmpty else {
            let count = refused.count == 1 ? "1 host or block" : "\(refused.count) hosts or blocks"
            let outcome = dryRun ? "nothing would be imported" : "nothing was imported"
            throw CLIError.input("\(count) of \(path) \(refused.count == 1 ? "holds" : "hold") settings credctl cannot import; \(outcome).",
                                 hint: "Fix the file, or run again with --skip-unsupported to import the rest without them.")
        }
    }

    /// `Title:` and one line per item, or nothing when there is none.
    private static func section(_ title: String, _ items: [(name: String, lines: [String])]) -> String {
        let lines = items.flatMap { item in item.lines.map { "  \(CanonicalUUID.printable(item.name)): \(printable($0))" } }
        return lines.isEmpty ? "" : "\(title):\n" + lines.joined(separator: "\n") + "\n"
    }

    /// Text from the file, shown whole, with characters that could rewrite the terminal line as '?'.
    private static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format ? "?" : $0 }))
    }

    private func text(_ action: SSHConfigImportEntry.Action, written: Bool) -> String {
        switch action {
        case .created: written ? "created" : "would create"
        case .updated: written ? "updated" : "would update"
        case .unchanged: "unchanged"
        case .skipped: "skipped"
        }
    }
}
