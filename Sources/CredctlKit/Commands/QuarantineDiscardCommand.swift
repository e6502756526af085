import CredentialVault

struct QuarantineDiscardCommand: Command {
    static let path = ["quarantine", "discard"]
    static let spec = CommandSpec(
        path: path,
        summary: "Drop quarantined entries for good, by ID.",
        overview: "Drop quarantined entries for good, by the ID that quarantine list shows (zone/number). Entries written by a newer credctl apply by themselves after an upgrade; discard only what you know is damaged or unwanted.",
        usage: ["quarantine discard ID..."],
        options: [],
        positionals: 1...1_000,
        examples: ["credctl quarantine discard config/3", "credctl quarantine discard secrets/1 secrets/2"])

    let entries: [(zone: SyncZone, id: Int64)]

    init(_ parsed: ParsedCommand) throws {
        entries = try parsed.positionals.map { text in
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let zone = SyncZone(rawValue: String(parts[0])), let id = Int64(parts[1]), id > 0 else {
                throw UsageError("'\(text)' is not a quarantine ID; IDs look like config/3 or secrets/1 (see credctl quarantine list).", command: Self.spec)
            }
            return (zone, id)
        }
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        // All IDs are checked before any is dropped, so a typo discards nothing.
        let held = Set(try vault.quarantine().map { "\($0.zone)/\($0.id)" })
        if let missing = entries.first(where: { !held.contains("\($0.zone.rawValue)/\($0.id)") }) {
            throw CLIError(message: "Nothing is quarantined as \(missing.zone.rawValue)/\(missing.id); nothing was discarded.",
                           hint: "List what is: credctl quarantine list", status: ExitStatus.notFound)
        }
        for entry in entries { try vault.discardQuarantined(zone: entry.zone, id: entry.id) }
        Output.out("Discarded \(entries.count) quarantined entr\(entries.count == 1 ? "y" : "ies").\n")
    }
}
