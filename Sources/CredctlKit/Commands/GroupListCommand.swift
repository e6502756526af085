import CredentialVault

struct GroupListCommand: Command {
    static let path = ["group", "list"]
    static let spec = CommandSpec(
        path: path,
        summary: "List groups with their parents and host counts.",
        overview: "List groups with their parents and host counts.",
        usage: ["group list [--json]"],
        options: [],
        positionals: 0...0,
        examples: ["credctl group list"],
        printsData: true)

    init(_ parsed: ParsedCommand) throws {}

    func run(_ context: Context) throws {
        let vault = try context.openVault(toRead: true)
        let groups = try vault.groups()
        let names = try RecordNames(vault)
        if context.json {
            Output.json(.object([("groups", .array(groups.map { RecordJSON.group($0, names: names) }))]))
            return
        }
        guard !groups.isEmpty else { Output.out("No groups.\n"); return }
        let hosts = try vault.hosts()
        Output.out(Table.render(["LABEL", "PARENT", "HOSTS"], groups.map { group in
            [group.label, group.parentID.map(names.group) ?? "-", String(hosts.filter { $0.groupID == group.id }.count)]
        }))
    }
}
