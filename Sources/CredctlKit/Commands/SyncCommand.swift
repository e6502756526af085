import CredentialVault

struct SyncCommand: Command {
    static let path = ["sync"]
    static let spec = CommandSpec(
        path: path,
        summary: "Run one sync round: fetch and merge, then send this device's changes.",
        overview: "Run one sync round with the remote: fetch and merge what other devices published, then send this device's changes. Needs no unlocking. Exits 69 when the remote cannot be reached and 77 when it refuses this device's credentials (local work is unaffected either way).",
        usage: ["sync [--zone config|secrets] [--compact] [--json]"],
        options: [.init(name: "--zone", value: "ZONE", help: "Only this zone: config or secrets.", completion: .words(["config", "secrets"])),
                  .init(name: "--compact", value: nil, help: "Also compact now: publish this device's cursors, write a snapshot of what the remote holds, and remove batches every live device has read (normally done when 64 batches have piled up).")],
        positionals: 0...0,
        examples: ["credctl sync", "credctl sync --zone config --json", "credctl sync --compact"],
        printsData: true)

    let zones: [SyncZone]
    let compact: Bool

    init(_ parsed: ParsedCommand) throws {
        if let name = parsed.value("--zone") {
            guard let zone = SyncZone(rawValue: name) else { throw UsageError("--zone must be config or secrets, not '\(name)'.", command: Self.spec) }
            zones = [zone]
        } else {
            zones = SyncZone.allCases
        }
        compact = parsed.flag("--compact")
    }

    func run(_ context: Context) throws {
        let progress = SyncProgress(context: context, verb: "syncing", showsSent: true)
        let outcomes = try context.openVault().sync(zones: zones, compaction: .fromEnvironment(immediate: compact)) {
            progress.update($0, received: $1, sent: $2)
        }
        progress.finish()
        if context.json {
            Output.json(.object([("zones", .array(outcomes.map { outcome in
                .object([("zone", .string(outcome.zone.rawValue)), ("state", .string(outcome.state.rawValue)), ("reason", .optional(outcome.reason)),
                         ("fetched_objects", .int(outcome.fetchedObjects)), ("applied", .int(outcome.applied)), ("quarantined", .int(outcome.quarantined)),
                         ("waiting", .int(outcome.waiting)), ("sent", .int(outcome.sentChanges)),
                         ("snapshots_read", .int(outcome.snapshotsRead)), ("snapshots_written", .int(outcome.snapshotsWritten)),
                         ("collected", .int(outcome.collectedObjects)), ("compaction_problem", .optional(outcome.compactionProblem)),
                         ("undid_revoked", .array(outcome.undidRevoked.map(JSONValue.string)))])
            }))]))
        } else {
            for outcome in outcomes {
                let detail = outcome.reason.map { ": \($0)" } ?? " (received \(outcome.applied), sent \(outcome.sentChanges), quarantined \(outcome.quarantined)\(outcome.waiting > 0 ? ", \(outcome.waiting) waiting" : ""))"
                Output.out("\(outcome.zone.rawValue): \(outcome.state.rawValue)\(detail)\(Self.compaction(outcome))\n")
                if !outcome.undidRevoked.isEmpty {
                    Output.out("\(outcome.zone.rawValue): undid what revoked \(outcome.undidRevoked.joined(separator: ", ")) wrote after the revoking device last read it "
                               + "(this device had taken it in before it learnt of the revocation); the other devices send those records again as they hold them\n")
                }
            }
        }
        for outcome in outcomes {
            if let problem = outcome.compactionProblem { Output.err("\(outcome.zone.rawValue): compaction stopped short (\(problem)); the next sync tries again\n") }
        }
        // Refused credentials first: waiting will not help there, fixing them will.
        if let refused = outcomes.first(where: { $0.failure == .accessDenied }) {
            throw CLIError(message: "The remote refused this device's access; local changes stay queued\(Self.because(refused)).",
                           hint: "Check the credentials the remote expects (for S3: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the profile).",
                           status: ExitStatus.locked)
        }
        if let failed = outcomes.first(where: { $0.state == .localFallback }) {
            throw CLIError(message: "The remote could not be used; local changes stay queued\(Self.because(failed)).",
                           hint: "Check that the remote directory is there and mounted, or the S3 endpoint reachable; sync again later.", status: ExitStatus.unavailable)
        }
        if let attention = outcomes.first(where: { $0.state == .needsAttention }) {
            throw CLIError(message: "Sync of the \(attention.zone.rawValue) zone needs attention\(Self.because(attention)).", hint: "See credctl status.",
                           status: ExitStatus.failure)
        }
    }

    /// ` (REASON)`, for the message of a failed run.
    private static func because(_ outcome: ZoneOutcome) -> String {
        guard var reason = outcome.reason, !reason.isEmpty else { return "" }
        if reason.hasSuffix(".") { reason.removeLast() }
        return " (\(reason))"
    }

    /// What compaction did in the run, when it did anything.
    static func compaction(_ outcome: ZoneOutcome) -> String {
        var parts: [String] = []
        if outcome.snapshotsRead > 0 { parts.append("started from \(outcome.snapshotsRead == 1 ? "a snapshot" : "\(outcome.snapshotsRead) snapshots")") }
        if outcome.snapshotsWritten > 0 { parts.append("wrote a snapshot") }
        if outcome.collectedObjects > 0 { parts.append("collected \(outcome.collectedObjects) old objects") }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: ", ")
    }
}
