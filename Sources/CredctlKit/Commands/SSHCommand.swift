import CredentialVault
import Glibc
import Launch

struct SSHCommand: Command {
    static let path = ["ssh"]
    static let spec = CommandSpec(
        path: path,
        summary: "Connect to a host with OpenSSH, as the vault describes it.",
        overview: "Connect with the system's OpenSSH client to a host as the vault describes it: host name, port, user, the jump chain (each jump host with its own settings, as ssh -J) and the host's port forwards. ssh signs through an agent socket that offers only the keys of this host and its jump hosts, and no private key is handed to ssh or to any other program: with an unlocked credctl agent (credctl unlock) the agent signs and nothing is asked; without one, credctl unlocks the vault as always and signs itself, for as long as ssh runs. A hop that authenticates with the user's own ssh-agent reaches it through the same socket. With --agent-lifetime the keys are instead added to the running agent ($SSH_AUTH_SOCK) for that many seconds. An identity marked --confirm is used only after SSH_ASKPASS says yes. A stored password is answered through SSH_ASKPASS by credctl itself, which ssh reaches with a single-use token; the secret is never in ssh's arguments or environment, and neither are CREDCTL_VAULT, CREDCTL_KEY_FILE or CREDCTL_PASSPHRASE_FILE. Words after -- are read as ssh reads its own: leading options go before the destination and win over the vault's settings, the rest is the remote command. The exit status is ssh's; 77 when the vault is locked and cannot be unlocked.",
        usage: ["ssh LABEL [--agent-lifetime SECONDS] [-- SSH-OPTION ... [COMMAND ...]]"],
        options: [.init(name: "--agent-lifetime", value: "SECONDS", help: "Add the keys to the running ssh-agent ($SSH_AUTH_SOCK) for SECONDS instead.")],
        positionals: 1...Int.max,
        examples: ["credctl ssh web-1", "credctl ssh db -- uptime", "credctl ssh web-1 -- -v -o ConnectTimeout=5 systemctl status nginx",
                   "credctl ssh bastion --agent-lifetime 600"],
        argument: .hosts)

    let label: String
    let commandLine: SSHCommandLine
    let agentLifetime: Int?

    init(_ parsed: ParsedCommand) throws {
        label = parsed.positionals[0]
        do {
            commandLine = try SSHCommandLine(userWords: Array(parsed.positionals.dropFirst()))
        } catch let error as LaunchError {
            throw UsageError(error.message, command: Self.spec)
        }
        agentLifetime = try parsed.integer("--agent-lifetime")
        if let agentLifetime, agentLifetime < 1 { throw UsageError("--agent-lifetime takes a number of seconds, at least 1.", command: Self.spec) }
    }

    func run(_ context: Context) throws {
        let path = context.environment["PATH"]
        guard let ssh = ExecutableSearch.find("ssh", path: path) else {
            throw CLIError(message: "The OpenSSH client (ssh) was not found on PATH.", hint: "Install it: apt-get install openssh-client", status: ExitStatus.unavailable)
        }
        let vault = try context.openVault()
        // An unlocked agent signs with the keys it keeps: they are not even read here.
        var agent = agentLifetime == nil ? context.unlockedAgent(for: vault) : nil
        if let agent { vault.secretSource = agent }
        var connection = try context.unlockingIfNeeded(vault) { try vault.resolve(label, openingPrivateKeys: agent == nil) }
        var jumps = try resolveJumps(of: connection, in: vault, context, openingPrivateKeys: agent == nil)
        let target = SSHCommandLine.Target(host: Self.hop(connection.endpoint), jumps: connection.jumpChain.map(Self.hop),
                                           forwards: connection.forwards.map { (Self.flag($0.kind), $0.specification) })
        // Refused before any agent or askpass socket exists, and before ssh is started.
        let arguments: [String]
        do {
            arguments = try commandLine.arguments(for: target)
        } catch let error as LaunchError {
            throw CLIError(message: error.message, hint: nil, status: error.status)
        }
        let session: SSHSession
        do {
            let plan = SSHCredentialPlan(target: connection, jumps: jumps, localUser: Self.localUser(context))
            session = try SSHSession(plan: plan, vault: vault, context: context, agentLifetime: agentLifetime, agent: agent)
        } catch let error as VaultError where error.code == .locked && agent != nil {
            // The agent locked (or went) since it was asked: unlock here and sign here, as without one.
            agent = nil
            vault.secretSource = nil
            connection = try context.unlockingIfNeeded(vault) { try vault.resolve(label) }
            jumps = try resolveJumps(of: connection, in: vault, context, openingPrivateKeys: true)
            let plan = SSHCredentialPlan(target: connection, jumps: jumps, localUser: Self.localUser(context))
            session = try SSHSession(plan: plan, vault: vault, context: context, agentLifetime: agentLifetime, agent: nil)
        }
        defer { session.stop() }
        let environment = try context.childEnvironment()
        for (name, value) in session.environment { try environment.set(name, text: value) }
        let status = try launch(ssh, arguments, environment)
        if status != 0 { throw ChildExit(status: status) }
    }

    private func resolveJumps(of connection: ResolvedConnection, in vault: Vault, _ context: Context, openingPrivateKeys: Bool) throws -> [ResolvedConnection] {
        try connection.jumpChain.map { jump in try context.unlockingIfNeeded(vault) { try vault.resolve(jump.label, openingPrivateKeys: openingPrivateKeys) } }
    }

    /// Runs ssh in the foreground. The terminal's signals reach it directly; SIGTERM and SIGHUP
    /// sent to this process are passed on to it. Either way this process outlives ssh, to stop
    /// the agent (and the keys in it) and the askpass socket. A Ctrl-Z that stops ssh stops this
    /// process too.
    private func launch(_ ssh: String, _ arguments: [String], _ environment: ChildEnvironment) throws -> Int32 {
        let ignored = [SIGINT, SIGQUIT, SIGTSTP], forwarded = [SIGTERM, SIGHUP]
        let previous = ignored.map { signal($0, SIG_IGN) } + forwarded.map { signal($0) { received in
            if SSHCommand.child > 0 { kill(SSHCommand.child, received) }
        } }
        defer {
            SSHCommand.child = 0
            for (signalNumber, handler) in zip(ignored + forwarded, previous) { signal(signalNumber, handler) }
        }
        do {
            let process = try ChildProcess.spawn(ssh, arguments, environment: environment)
            SSHCommand.child = process.pid
            return process.wait(followingStops: true)
        } catch let error as LaunchError {
            throw CLIError(message: error.message, hint: nil, status: ExitStatus.unavailable)
        }
    }

    /// The running ssh, for the signal handlers (which cannot capture context).
    nonisolated(unsafe) static var child: pid_t = 0

    private static func hop(_ endpoint: Endpoint) -> SSHCommandLine.Hop {
        SSHCommandLine.Hop(label: endpoint.label, hostname: endpoint.hostname, port: endpoint.port, username: endpoint.username)
    }

    private static func flag(_ kind: ForwardKind) -> String {
        switch kind {
        case .local: "-L"
        case .remote: "-R"
        case .dynamic: "-D"
        }
    }

    /// The name ssh logs in with when none is configured (and so the name in its prompts).
    private static func localUser(_ context: Context) -> String {
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return context.environment["USER"] ?? "root"
    }
}
