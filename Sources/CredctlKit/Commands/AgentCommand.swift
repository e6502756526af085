import Agent
import CredentialVault

struct AgentCommand: Command {
    static let path = ["agent"]
    static let spec = CommandSpec(
        path: path,
        summary: "Run the agent that holds this vault unlocked for a while.",
        overview: "Run the agent of this vault in the foreground: it listens on $XDG_RUNTIME_DIR/credctl/agent.sock (another vault's agent on agent-HASH.sock), serves processes of this user only, and holds the vault unlocked after credctl unlock until it is idle for 15 minutes, 12 hours have passed, or credctl lock; commands that need a secret then ask it instead of prompting. It also syncs the vault in the background every 5 minutes, locked or not, and a few seconds after a command changes the vault or, with a directory remote, another device's objects arrive in it (inotify); credctl status shows the last and next sync, the last error and whether the remote is watched. One agent per vault: a second refuses to start. credctl unlock starts one when none runs; systemd can start it from a socket unit (LISTEN_FDS). It ends on SIGTERM, SIGINT or SIGHUP, wiping the keys and removing its socket.",
        usage: ["agent [--sync-interval SECONDS]"],
        options: [.init(name: "--sync-interval", value: "SECONDS", help: "Sync in the background this often, locked or not (default 300, a tenth more at random; later after failures, up to an hour; 0: never, not even after changes).")],
        positionals: 0...0,
        examples: ["credctl agent", "credctl --vault /srv/vault agent"])

    let syncInterval: Int

    init(_ parsed: ParsedCommand) throws {
        syncInterval = try parsed.integer("--sync-interval") ?? AgentSync.defaultInterval
        guard (0...86_400).contains(syncInterval) else { throw UsageError("--sync-interval takes 0 to 86400 seconds.", command: Self.spec) }
    }

    func run(_ context: Context) throws {
        let server: AgentServer
        do {
            server = try AgentServer(vaultPath: context.vaultPath, place: context.agentPlace, environment: context.environment, syncInterval: syncInterval)
            try AgentSignals.stopOnTermination(server)
        } catch let error as AgentError {
            throw CLIError(message: error.message, hint: nil, status: ExitStatus.failure)
        }
        server.run()
    }
}
