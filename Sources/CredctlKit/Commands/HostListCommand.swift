import CredentialVault

struct HostListCommand: Command {
    static let path = ["host", "list"]
    static let spec = CommandSpec(
        path: path,
        summary: "List hosts, by label.",
        overview: "List hosts, by label. Never needs unlocking.",
        usage: ["host list [--group LABEL] [--json]"],
        options: [.init(name: "--group", value: "LABEL", help: "Only hosts directly in this group.", completion: .groups)],
        positionals: 0...0,
        examples: ["credctl host list", "credctl host list --group production --json"],
        printsData: true)

    let group: String?

    init(_ parsed: ParsedCommand) throws { group = parsed.value("--group") }

    func run(_ context: Context) throws {
        let vault = try context.openVault(toRead: true)
        let hosts = try vault.hosts(inGroup: try group.map { try vault.group($0).id })
        let names = try RecordNames(vault)
        if context.json {
            Output.json(.object([("hosts", .array(hosts.map { RecordJSON.host($0, names: names) }))]))
            return
        }
        guard !hosts.isEmpty else { Output.out("No hosts.\n"); return }
        Output.out(Table.render(["LABEL", "ADDRESS", "USER", "AUTH", "GROUP"], hosts.map { host in
            [host.label, "\(host.hostname):\(host.port)", host.username ?? "-", host.authMethod.rawValue, host.groupID.map(names.group) ?? "-"]
        }))
    }
}
