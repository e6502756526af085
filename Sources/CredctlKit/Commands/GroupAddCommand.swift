import CredentialVault

struct GroupAddCommand: Command {
    static let path = ["group", "add"]
    static let spec = CommandSpec(
        path: path,
        summary: "Add a group of hosts, optionally inside another group.",
        overview: "Add a group of hosts, optionally inside another group.",
        usage: ["group add LABEL [--parent LABEL]"],
        options: [.init(name: "--parent", value: "LABEL", help: "The group to nest this one in.", completion: .groups)],
        positionals: 1...1,
        examples: ["credctl group add production", "credctl group add eu --parent production"])

    let label: String
    let parent: String?

    init(_ parsed: ParsedCommand) throws {
        label = parsed.positionals[0]
        parent = parsed.value("--parent")
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let group = try vault.saveGroup(HostGroup(label: label, parentID: try parent.map { try vault.group($0).id }))
        Output.out("Added group '\(group.label)'.\n")
    }
}
