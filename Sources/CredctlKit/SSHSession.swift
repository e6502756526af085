import CredentialVault
import Glibc
import Launch

/// The helpers one `credctl ssh` runs beside ssh: the agent holding the keys, and the askpass
/// socket answering password prompts. `environment` is what ssh needs to use them.
final class SSHSession {
    private var agent: SSHAgent?
    private var askpass: AskpassServer?
    private(set) var environment: [String: String] = [:]

    init(plan: SSHCredentialPlan, context: Context, agentLifetime: Int?) throws {
        let path = context.environment["PATH"]
        let parent = OwnProgram.privateParent(context.environment)
        let program = try OwnProgram.path()
        do {
            if !plan.passwords.isEmpty || plan.keys.contains(where: { $0.passphrase != nil }) {
                askpass = try AskpassServer(parent: parent)
            }
            if let askpass, !plan.passwords.isEmpty {
                environment = askpass.environment(token: try askpass.grant(plan.passwords), askpass: program)
            }
            if !plan.keys.isEmpty {
                let agent: SSHAgent
                // ssh has one agent for every hop: a hop that uses the user's agent needs the
                // vault's keys there too (for a while), not in a private agent.
                var agentLifetime = agentLifetime
                if agentLifetime == nil, plan.usesUserAgent, let socket = context.environment["SSH_AUTH_SOCK"], !socket.isEmpty {
                    agentLifetime = Self.sharedAgentLifetime
                    Output.err("credctl: a host on this connection uses your ssh-agent, so the vault's keys are added to it for \(Self.sharedAgentLifetime) seconds.\n")
                }
                if let agentLifetime {
                    guard let socket = context.environment["SSH_AUTH_SOCK"], !socket.isEmpty else {
                        throw CLIError(message: "--agent-lifetime needs a running ssh-agent, and SSH_AUTH_SOCK is not set.",
                                       hint: "Start one (eval $(ssh-agent)), or leave --agent-lifetime out for a private agent.", status: ExitStatus.unavailable)
                    }
                    agent = try SSHAgent.running(socket: socket, lifetime: agentLifetime, path: path)
                } else {
                    agent = try SSHAgent.startPrivate(parent: parent, path: path)
                }
                self.agent = agent
                for key in plan.keys {
                    let passphraseEnvironment = try key.passphrase.map { passphrase in
                        try askpass!.environment(token: askpass!.grant([(AskpassPrompt.keyPassphrase, passphrase)]), askpass: program)
                    } ?? [:]
                    try agent.add(key.body, name: key.name, askpass: passphraseEnvironment)
                }
                environment["SSH_AUTH_SOCK"] = agent.socketPath
            }
        } catch let error as LaunchError {
            stop()
            throw CLIError(message: error.message, hint: nil, status: error.status == 1 ? ExitStatus.failure : error.status)
        } catch {
            stop()
            throw error
        }
    }

    /// How long the vault's keys stay in the user's agent when a hop needs that agent anyway.
    static let sharedAgentLifetime = 600

    func stop() {
        agent?.stop()
        agent = nil
        askpass?.stop()
        askpass = nil
    }
}
