import Agent
import CredentialVault

struct LockCommand: Command {
    static let path = ["lock"]
    static let spec = CommandSpec(
        path: path,
        summary: "Lock the vault's agent now: its keys are wiped at once.",
        overview: "Lock the vault's agent now: the keys it holds are wiped at once, and commands ask for the key again (or use a key file) until the next credctl unlock. Says so when no agent runs.",
        usage: ["lock"],
        options: [],
        positionals: 0...0,
        examples: ["credctl lock"])

    init(_ parsed: ParsedCommand) throws {}

    func run(_ context: Context) throws {
        guard let client = AgentClient(place: context.agentPlace) else {
            return Output.out("No agent runs for this vault; nothing to lock.\n")
        }
        guard case .ok = try client.send(.lock) else { throw CLIError(message: "The agent did not lock.", hint: nil, status: ExitStatus.failure) }
        Output.out("Locked: the agent holds no key now.\n")
    }
}
