import CredentialVault

struct GroupRemoveCommand: Command {
    static let path = ["group", "rm"]
    static let spec = CommandSpec(
        path: path,
        summary: "Remove a group; its hosts and subgroups move up to its parent.",
        overview: "Remove a group. Its hosts and subgroups move up to its parent (or to the top level); nothing else is removed.",
        usage: ["group rm LABEL"],
        options: [],
        positionals: 1...1,
        examples: ["credctl group rm staging"],
        argument: .groups)

    let label: String

    init(_ parsed: ParsedCommand) throws { label = parsed.positionals[0] }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let group = try vault.group(label)
        try vault.removeGroup(CanonicalUUID.text(group.id))
        Output.out("Removed group '\(group.label)'.\n")
    }
}
