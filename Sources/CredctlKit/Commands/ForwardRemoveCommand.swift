import FoundationEssentials
import CredentialVault

struct ForwardRemoveCommand: Command {
    static let spec = CommandSpec(
        path: ["forward", "rm"],
        summary: "Remove a port forward by its id (see forward list).",
        overview: "Remove a port forward by its id (see forward list).",
        usage: ["forward rm ID"],
        options: [],
        positionals: 1...1,
        examples: ["credctl forward rm 3f0c1d2e-8a5b-4c6d-9e7f-0a1b2c3d4e5f"])

    let id: UUID

    init(_ parsed: ParsedCommand) throws {
        guard let id = UUID(uuidString: parsed.positionals[0]) else {
            throw UsageError("'\(parsed.positionals[0])' is not a forward id (a UUID from forward list).", command: Self.spec)
        }
        self.id = id
    }

    func run(_ context: Context) throws {
        try context.openVault().removeForward(id: id)
        Output.out("Removed port forward \(CanonicalUUID.text(id)).\n")
    }
}
