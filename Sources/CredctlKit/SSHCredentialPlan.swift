import CredentialVault
import Launch

/// What a connection's hosts need from the vault: keys for the agent (with their passphrases)
/// and passwords for the prompts of the host they belong to. The target and every jump host
/// bring their own. When two hops share a prompt (same user and host name, other ports), only
/// the first hop's password is offered: the prompt cannot tell them apart, so the other is
/// asked on the terminal rather than risk sending a password to the wrong server.
struct SSHCredentialPlan {
    struct Key {
        let name: String
        let body: SecretBytes
        let passphrase: SecretBytes?
    }

    var keys: [Key] = []
    /// Some hop authenticates with the user's own ssh-agent.
    var usesUserAgent = false
    var passwords: [(prompt: AskpassPrompt, secret: SecretBytes)] = []

    init(target: ResolvedConnection, jumps: [ResolvedConnection], localUser: String) {
        for connection in jumps + [target] {
            let endpoint = connection.endpoint
            let prompt = AskpassPrompt.password(user: endpoint.username ?? localUser, host: endpoint.hostname)
            switch connection.auth {
            case .privateKey(let key, let passphrase, let identity):
                keys.append(Key(name: "identity '\(identity.label)'", body: key, passphrase: passphrase))
            case .password(let password), .keyboardInteractive(let password?):
                if !passwords.contains(where: { $0.prompt == prompt }) { passwords.append((prompt, password)) }
            case .agent:
                usesUserAgent = true
            case .keyboardInteractive(nil):
                break
            }
        }
    }
}
