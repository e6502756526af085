import CredentialVault

struct ForwardAddCommand: Command {
    static let path = ["forward", "add"]
    static let spec = CommandSpec(
        path: path,
        summary: "Add a local, remote or dynamic (SOCKS) port forward to a host.",
        overview: "Add a port forward to a host, in ssh's own syntax: --local and --remote take [BIND:]PORT:DEST:PORT, --dynamic (SOCKS) takes [BIND:]PORT.",
        usage: ["forward add HOST_LABEL (--local | --remote) [BIND:]PORT:DEST:PORT", "forward add HOST_LABEL --dynamic [BIND:]PORT"],
        options: [
            .init(name: "--local", value: "SPEC", help: "Listen locally, connect from the server (ssh -L)."),
            .init(name: "--remote", value: "SPEC", help: "Listen on the server, connect from here (ssh -R)."),
            .init(name: "--dynamic", value: "SPEC", help: "A local SOCKS proxy through the server (ssh -D)."),
        ],
        positionals: 1...1,
        examples: ["credctl forward add web-1 --local 8080:localhost:80", "credctl forward add bastion --dynamic 127.0.0.1:1080"],
        argument: .hosts)

    let hostLabel: String
    let kind: ForwardKind
    let specification: String

    init(_ parsed: ParsedCommand) throws {
        try parsed.exclusive("--local", "--remote", "--dynamic")
        let given = ForwardKind.allCases.compactMap { kind in parsed.value("--\(kind.rawValue)").map { (kind, $0) } }
        guard let (kind, specification) = given.first else {
            throw UsageError("forward add needs --local, --remote or --dynamic.", command: Self.spec)
        }
        hostLabel = parsed.positionals[0]
        self.kind = kind
        self.specification = specification
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let host = try vault.host(hostLabel)
        let rule = try vault.saveForward(try ForwardSpecification.parse(specification, kind: kind, hostID: host.id))
        Output.out("Added \(rule.kind.rawValue) forward \(rule.specification) to '\(host.label)' (id \(CanonicalUUID.text(rule.id))).\n")
    }
}
