import Agent
import CredentialVault
import Glibc
import Launch
import SSHAgentService

/// The helpers one `credctl ssh` runs beside ssh (docs/agent.md, "The ssh-agent"): the agent
/// socket ssh signs through, and the askpass socket answering password prompts. `environment`
/// is what ssh needs to use them. No private key is handed to ssh or to an OpenSSH agent, except
/// security keys (their token signs; the file is a handle) and with `--agent-lifetime`.
final class SSHSession {
    private var askpass: AskpassServer?
    /// The socket this process serves, when ssh's keys come from more than the credctl agent.
    private var listener: SSHAgentListener?
    private var listenerDirectory: String?
    /// A private OpenSSH agent holding security keys, or the user's agent (`--agent-lifetime`).
    private var openSSHAgent: SSHAgent?
    /// Keeps the credctl agent's per-connection socket alive (it ends with this connection).
    private var agentConnection: AgentClient?
    private(set) var environment: [String: String] = [:]
    private let parent: String
    private let program: String

    /// With `agent`, keys the plan left in the vault are signed by that (unlocked) agent.
    init(plan: SSHCredentialPlan, vault: Vault, context: Context, agentLifetime: Int?, agent: AgentClient?) throws {
        parent = OwnProgram.privateParent(context.environment)
        program = try OwnProgram.path()
        do {
            if !plan.passwords.isEmpty {
                let askpass = try askpassServer()
                environment = askpass.environment(token: try askpass.grant(plan.passwords), askpass: program)
            }
            guard !plan.keys.isEmpty else { return }
            if let agentLifetime {
                try addToUserAgent(plan.keys, lifetime: agentLifetime, vault: vault, context: context)
            } else {
                try serveKeys(plan, vault: vault, context: context, agent: agent)
            }
        } catch let error as LaunchError {
            stop()
            throw CLIError(message: error.message, hint: nil, status: error.status == 1 ? ExitStatus.failure : error.status)
        } catch {
            stop()
            throw error
        }
    }

    func stop() {
        listener?.stop()
        listener = nil
        if let listenerDirectory { rmdir(listenerDirectory) }
        listenerDirectory = nil
        openSSHAgent?.stop()
        openSSHAgent = nil
        agentConnection = nil
        askpass?.stop()
        askpass = nil
    }

    /// Gives ssh one socket with every key its hops need: the credctl agent's own when it signs
    /// for all of them, else a socket this process serves, combining keys opened here, the
    /// agent's socket, security keys, and the user's agent when a hop authenticates with it.
    private func serveKeys(_ plan: SSHCredentialPlan, vault: Vault, context: Context, agent: AgentClient?) throws {
        var sources: [any SSHAgentKeys] = []
        var agentSocket: String?
        let signable = plan.keys.filter { $0.identity.agentCanSign }
        let securityKeys = plan.keys.filter { !$0.identity.agentCanSign }
        if let agent, !signable.isEmpty, signable.allSatisfy({ $0.body == nil }) {
            let path = try agent.sshSocket(identities: signable.map(\.identity.id), environment: context.environment)
            agentConnection = agent
            agentSocket = path
            sources.append(UpstreamAgent(socketPath: path))
        } else if !signable.isEmpty {
            let entries = try signable.map { try SSHKeyOpening.open($0, vault: vault, context: context) }
            sources.append(OpenedSSHKeys(entries: entries, confirmation: KeyUseConfirmation(environment: context.environment)))
        }
        if !securityKeys.isEmpty {
            let openSSH = try SSHAgent.startPrivate(parent: parent, path: context.environment["PATH"])
            openSSHAgent = openSSH
            try add(securityKeys, to: openSSH, vault: vault)
            sources.append(UpstreamAgent(socketPath: openSSH.socketPath))
        }
        if plan.usesUserAgent, let socket = context.environment["SSH_AUTH_SOCK"], !socket.isEmpty {
            sources.append(UpstreamAgent(socketPath: socket))
        }
        if sources.count == 1, let agentSocket {
            environment["SSH_AUTH_SOCK"] = agentSocket
            return
        }
        var template = Array("\(parent)/credctl-ssh-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw LaunchError("Cannot create a private directory in \(parent).") }
        let directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        listenerDirectory = directory
        do {
            listener = try SSHAgentListener(path: directory + "/agent.sock", keys: CombinedAgentKeys(sources))
        } catch {
            throw LaunchError("Cannot serve ssh's agent socket: \(error.message)")
        }
        environment["SSH_AUTH_SOCK"] = directory + "/agent.sock"
    }

    /// `--agent-lifetime`: the keys go to the user's running agent, as the option asks.
    private func addToUserAgent(_ keys: [SSHCredentialPlan.Key], lifetime: Int, vault: Vault, context: Context) throws {
        guard let socket = context.environment["SSH_AUTH_SOCK"], !socket.isEmpty else {
            throw CLIError(message: "--agent-lifetime needs a running ssh-agent, and SSH_AUTH_SOCK is not set.",
                           hint: "Start one (eval $(ssh-agent)), or leave --agent-lifetime out.", status: ExitStatus.unavailable)
        }
        let userAgent = try SSHAgent.running(socket: socket, lifetime: lifetime, path: context.environment["PATH"])
        try add(keys, to: userAgent, vault: vault)
        environment["SSH_AUTH_SOCK"] = socket
    }

    /// Hands key files to an OpenSSH agent through ssh-add; a stored passphrase is answered
    /// through the askpass socket.
    private func add(_ keys: [SSHCredentialPlan.Key], to agent: SSHAgent, vault: Vault) throws {
        for key in keys {
            let (body, passphrase) = try key.material(from: vault)
            var passphraseEnvironment: [String: String] = [:]
            if let passphrase {
                let askpass = try askpassServer()
                passphraseEnvironment = askpass.environment(token: try askpass.grant([(AskpassPrompt.keyPassphrase, passphrase)]), askpass: program)
            }
            try agent.add(body, name: "identity '\(key.identity.label)'", askpass: passphraseEnvironment)
        }
    }

    private func askpassServer() throws -> AskpassServer {
        if let askpass { return askpass }
        let server = try AskpassServer(parent: parent)
        askpass = server
        return server
    }
}
