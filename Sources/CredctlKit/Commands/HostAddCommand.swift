import CredentialVault

struct HostAddCommand: Command {
    static let path = ["host", "add"]
    static let spec = CommandSpec(
        path: path,
        summary: "Add a host.",
        overview: "Add a host. A password is read from standard input with --password-stdin, never from the command line; with --auth password and no --password-stdin it is asked on the terminal (twice, without echo), and refused without one. It is sealed before the host refers to it.",
        usage: ["host add LABEL --hostname H [--port N] [--user U] [--auth METHOD] [--password-stdin] [--identity LABEL] [--group LABEL] [--jump LABEL]"],
        options: HostOptions.shared,
        positionals: 1...1,
        examples: ["printf %s \"$PW\" | credctl host add web-1 --hostname 10.0.0.5 --user deploy --password-stdin",
                   "credctl host add db --hostname db.internal --identity laptop-key --jump bastion"])

    let parsed: ParsedCommand
    let port: Int
    let auth: AuthMethod?

    init(_ parsed: ParsedCommand) throws {
        guard parsed.value("--hostname") != nil else { throw UsageError("host add needs --hostname.", command: Self.spec) }
        self.parsed = parsed
        port = try parsed.integer("--port") ?? 22
        auth = try HostOptions.authMethod(parsed)
        if let auth, auth == .agent || auth == .publicKey, parsed.flag("--password-stdin") {
            throw UsageError("--auth \(auth.rawValue) does not use a password; leave out --password-stdin or choose --auth password.", command: Self.spec)
        }
    }

    func run(_ context: Context) throws {
        // Read the password before unlocking so a prompt never competes with a pipe.
        let password = try HostPassword.read(parsed, label: parsed.positionals[0], needsOne: auth == .password)
        let vault = try context.openVault()
        if password != nil { try context.unlockForWriting(vault) }
        var host = Host(label: parsed.positionals[0], hostname: parsed.value("--hostname")!, port: port, username: parsed.value("--user"))
        try HostOptions.applyLinks(parsed, to: &host, in: vault)
        host.authMethod = auth ?? (password != nil ? .password : host.identityID != nil ? .publicKey : .agent)
        let saved = try vault.addHost(host, password: password)
        Output.out("Added host '\(saved.label)' (\(saved.hostname):\(saved.port), \(saved.authMethod.rawValue)).\n")
    }
}
