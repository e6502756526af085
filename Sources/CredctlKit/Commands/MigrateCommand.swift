import CredentialVault

struct MigrateCommand: Command {
    static let path = ["migrate"]
    static let spec = CommandSpec(
        path: path,
        summary: "Make device-only secrets syncable now.",
        overview: "Make device-only secrets syncable now (every unlock does this too): each one not pinned is sealed again under the vault key, the secrets zone syncs, and its device-only copy is dropped only once the remote is read back and holds it. Lists what it did; with --dry-run, what it would do (no unlocking, nothing changed). What cannot finish (remote unreachable) stays pending and is retried.",
        usage: ["migrate [--dry-run] [--json]"],
        options: [.init(name: "--dry-run", value: nil, help: "List what would be migrated or is awaiting verification; change nothing.")],
        positionals: 0...0,
        examples: ["credctl migrate --dry-run", "credctl migrate", "credctl migrate --json"],
        printsData: true)

    let dryRun: Bool

    init(_ parsed: ParsedCommand) throws { dryRun = parsed.flag("--dry-run") }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        if !dryRun && !vault.isUnlocked { try context.unlock(vault) }
        let report = try vault.migrate(dryRun: dryRun)
        if context.json {
            Output.json(.object([
                ("dry_run", .bool(dryRun)),
                ("items", .array(report.items.map { item in
                    .object([("reference", .string(item.reference)), ("secret", .string(vault.describeSecret(item.reference))), ("step", .string(Self.name(item.step)))])
                })),
                ("pending", .int(report.items.filter { $0.step != .verified }.count)),
                ("sync", .optional(report.sync.map { "\($0.state.rawValue)" + ($0.reason.map { ": \($0)" } ?? "") })),
            ]))
        } else if report.items.isEmpty {
            Output.out("Nothing to migrate: every secret is syncable, pinned to this device, or verified on the remote.\n")
        } else {
            Output.out(Table.render(["SECRET", dryRun ? "WOULD" : "DONE"], report.items.map { [vault.describeSecret($0.reference), Self.text($0.step)] }))
        }
        if let sync = report.sync, sync.state == .localFallback {
            let reason = sync.reason.map { " (\($0.hasSuffix(".") ? String($0.dropLast()) : $0))" } ?? ""
            if sync.failure == .accessDenied {
                throw CLIError(message: "The remote refused this device's access; what was not verified stays pending and is retried\(reason).",
                               hint: "Check the credentials the remote expects, then run credctl migrate again.", status: ExitStatus.locked)
            }
            throw CLIError(message: "The remote could not be used; what was not verified stays pending and is retried\(reason).",
                           hint: "Check that the remote directory is there and mounted, then run credctl migrate again.", status: ExitStatus.unavailable)
        }
    }

    private static func name(_ step: MigrationReport.Step) -> String {
        switch step {
        case .wouldMigrate: "would_migrate"
        case .awaitingVerification: "awaiting_verification"
        case .verified: "verified"
        }
    }

    private static func text(_ step: MigrationReport.Step) -> String {
        switch step {
        case .wouldMigrate: "becomes syncable"
        case .awaitingVerification: "syncable; device-only copy kept until the remote holds it"
        case .verified: "syncable and verified on the remote"
        }
    }
}
