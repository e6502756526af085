import Agent
import CredentialVault

struct AgentCommand: Command {
    static let spec = CommandSpec(
        path: ["agent"],
        summary: "Run the agent that holds this vault unlocked for a while.",
        overview: "Run the agent of this vault in the foreground: it listens on $XDG_RUNTIME_DIR/credctl/agent.sock (another vault's agent on agent-HASH.sock), serves processes of this user only, and holds the vault unlocked after credctl unlock until it is idle for 15 minutes, 12 hours have passed, or credctl lock; commands that need a secret then ask it instead of prompting. One agent per vault: a second refuses to start. credctl unlock starts one when none runs; systemd can start it from a socket unit (LISTEN_FDS). It ends on SIGTERM or SIGINT, wiping the keys.",
        usage: ["agent"],
        options: [],
        positionals: 0...0,
        examples: ["credctl agent", "credctl --vault /srv/vault agent"])

    init(_ parsed: ParsedCommand) throws {}

    func run(_ context: Context) throws {
        let server: AgentServer
        do {
            server = try AgentServer(vaultPath: context.vaultPath, place: context.agentPlace, environment: context.environment)
        } catch let error as AgentError {
            throw CLIError(message: error.message, hint: nil, status: ExitStatus.failure)
        }
        AgentSignals.stopOnTermination(server)
        server.run()
    }
}
