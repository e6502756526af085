import CredentialVault

struct ForwardRemoveCommand: Command {
    static let path = ["forward", "rm"]
    static let spec = CommandSpec(
        path: path,
        summary: "Remove a port forward by its id (see forward list).",
        overview: "Remove a port forward by its id (see forward list) or a unique start of it, four characters at least (as git takes commit ids).",
        usage: ["forward rm ID"],
        options: [],
        positionals: 1...1,
        examples: ["credctl forward rm 3f0c1d2e", "credctl forward rm 3f0c1d2e-8a5b-4c6d-9e7f-0a1b2c3d4e5f"])

    let text: String

    init(_ parsed: ParsedCommand) throws { text = parsed.positionals[0] }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let id = try vault.forwardID(text)
        try vault.removeForward(id: id)
        Output.out("Removed port forward \(CanonicalUUID.text(id)).\n")
    }
}
