import CredentialVault

struct SyncCommand: Command {
    static let spec = CommandSpec(
        path: ["sync"],
        overview: "Run one sync round with the remote: fetch and merge what other devices published, then send this device's changes. Needs no unlocking. Exits 69 when the remote cannot be reached (local work is unaffected).",
        usage: ["sync [--zone config|secrets] [--json]"],
        options: [.init(name: "--zone", value: "ZONE", help: "Only this zone: config or secrets.")],
        positionals: 0...0,
        examples: ["credctl sync", "credctl sync --zone config --json"],
        printsData: true)

    let zones: [SyncZone]

    init(_ parsed: ParsedCommand) throws {
        if let name = parsed.value("--zone") {
            guard let zone = SyncZone(rawValue: name) else { throw UsageError("--zone must be config or secrets, not '\(name)'.", command: Self.spec) }
            zones = [zone]
        } else {
            zones = SyncZone.allCases
        }
    }

    func run(_ context: Context) throws {
        let progress = SyncProgress(context: context, verb: "syncing", showsSent: true)
        let outcomes = try context.openVault().sync(zones: zones) { progress.update($0, received: $1, sent: $2) }
        progress.finish()
        if context.json {
            Output.json(.object([("zones", .array(outcomes.map { outcome in
                .object([("zone", .string(outcome.zone.rawValue)), ("state", .string(outcome.state.rawValue)), ("reason", .optional(outcome.reason)),
                         ("fetched_objects", .int(outcome.fetchedObjects)), ("applied", .int(outcome.applied)), ("quarantined", .int(outcome.quarantined)),
                         ("waiting", .int(outcome.waiting)), ("sent", .int(outcome.sentChanges))])
            }))]))
        } else {
            for outcome in outcomes {
                let detail = outcome.reason.map { ": \($0)" } ?? " (received \(outcome.applied), sent \(outcome.sentChanges), quarantined \(outcome.quarantined)\(outcome.waiting > 0 ? ", \(outcome.waiting) waiting" : ""))"
                Output.out("\(outcome.zone.rawValue): \(outcome.state.rawValue)\(detail)\n")
            }
        }
        if outcomes.contains(where: { $0.state == .localFallback }) {
            throw CLIError(message: "The remote could not be used; local changes stay queued.", hint: "Check that the remote directory is there and mounted.", status: ExitStatus.unavailable)
        }
        if outcomes.contains(where: { $0.state == .needsAttention }) {
            throw CLIError(message: "Sync needs attention; nothing was uploaded for the affected zone.", hint: "See credctl status.", status: ExitStatus.failure)
        }
    }
}
