import Agent
import CredentialVault
import Glibc
import Launch

struct UnlockCommand: Command {
    static let path = ["unlock"]
    static let spec = CommandSpec(
        path: path,
        summary: "Unlock the vault into its agent, so commands stop asking.",
        overview: "Unlock the vault into its agent (starting one when none runs) with what unlocks it here: --key-file or --passphrase-file, else the desktop keyring, the default key file, or the passphrase asked on the terminal. Commands that need a secret then ask the agent and never prompt, until it locks: after --idle-timeout seconds without a use (900 unless given), --max-time seconds after this unlock (43200 unless given; a day at most), or credctl lock. Unlocking an unlocked agent checks the key again and starts both times anew.",
        usage: ["unlock [--idle-timeout SECONDS] [--max-time SECONDS]"],
        options: [.init(name: "--idle-timeout", value: "SECONDS", help: "Lock after this long without a use (default 900)."),
                  .init(name: "--max-time", value: "SECONDS", help: "Lock this long after the unlock, used or not (default 43200, at most 86400).")],
        positionals: 0...0,
        examples: ["credctl unlock", "credctl unlock --idle-timeout 300", "credctl --key-file unlock --max-time 3600"])

    let idle: Int?
    let maximum: Int?

    init(_ parsed: ParsedCommand) throws {
        idle = try parsed.integer("--idle-timeout")
        maximum = try parsed.integer("--max-time")
        for (name, value) in [("--idle-timeout", idle), ("--max-time", maximum)] {
            if let value, !(1...86_400).contains(value) { throw UsageError("\(name) takes 1 to 86400 seconds, not \(value).", command: Self.spec) }
        }
        if let idle, idle > maximum ?? 43_200 { throw UsageError("--idle-timeout cannot be longer than --max-time.", command: Self.spec) }
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let client = try AgentClient(place: context.agentPlace) ?? Self.start(context)
        let materials = try context.unlockMaterials(vault)
        // Asked last, as a command would: only a vault with a passphrase, only on a terminal.
        let canAsk = !context.keyGiven && vault.unlockMethods.contains("passphrase") && (Output.isTerminal(0) || Output.isTerminal(2))
        guard !materials.isEmpty || canAsk else { throw context.noKeyError(vault.unlockMethods) }
        for (index, (kind, material)) in materials.enumerated() {
            do {
                return try unlock(client, kind, material)
            } catch let error as VaultError where index < materials.count - 1 || canAsk {
                Output.err("credctl: \(error.message) Trying the vault's next unlock method.\n")
            }
        }
        try unlock(client, "passphrase", try TerminalPrompt.ask("Vault passphrase"))
    }

    private func unlock(_ client: AgentClient, _ kind: String, _ material: SecretBytes) throws {
        switch try client.send(.unlock(kind: kind, material: material, idle: idle, maximum: maximum)) {
        case .ok:
            let status = try client.status()
            Output.out("The agent (pid \(status.pid)) holds the vault unlocked; it locks after \(idle ?? 900) s without a use, \(maximum ?? 43_200) s from now at the latest, or with credctl lock.\n")
        case .error(let code, let message, let hint):
            throw VaultError(VaultError.Code(rawValue: code) ?? .storage, message, hint: hint)
        default:
            throw CLIError(message: "The agent answered the unlock with something else.", hint: nil, status: ExitStatus.failure)
        }
    }

    /// Starts an agent for this vault, detached in a session of its own, and connects to it.
    static func start(_ context: Context) throws -> AgentClient {
        var environment = context.environment.filter { !Context.vaultVariables.contains($0.key) && !$0.key.hasPrefix("LISTEN_") }
        environment["CREDCTL_VAULT"] = AgentPlace.absolute(context.vaultPath)
        let program = try OwnProgram.path()
        let child = try ChildProcess.spawn(program, ["credctl", "agent"], environment: try ChildEnvironment(environment), silent: true, newSession: true)
        for _ in 0..<500 {
            if let client = AgentClient(place: context.agentPlace) { return client }
            var status: Int32 = 0
            if waitpid(child.pid, &status, WNOHANG) == child.pid {
                throw CLIError(message: "The agent did not start (another may be starting; see credctl agent).", hint: nil, status: ExitStatus.failure)
            }
            usleep(10_000)
        }
        throw CLIError(message: "The agent did not start within 5 seconds.", hint: "Run credctl agent in a terminal to see why.", status: ExitStatus.failure)
    }
}
