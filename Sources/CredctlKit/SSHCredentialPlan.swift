import CredentialVault
import Launch

/// What a connection's hosts need from the vault: keys for the agent (with their passphrases)
/// and passwords for the prompts of the host they belong to. The target and every jump host
/// bring their own.
struct SSHCredentialPlan {
    struct Key {
        let name: String
        let body: SecretBytes
        let passphrase: SecretBytes?
    }

    var keys: [Key] = []
    var passwords: [(prompt: AskpassPrompt, secret: SecretBytes)] = []

    init(target: ResolvedConnection, jumps: [ResolvedConnection], localUser: String) {
        for connection in jumps + [target] {
            let endpoint = connection.endpoint
            let prompt = AskpassPrompt.password(user: endpoint.username ?? localUser, host: endpoint.hostname)
            switch connection.auth {
            case .privateKey(let key, let passphrase, let identity):
                keys.append(Key(name: "identity '\(identity.label)'", body: key, passphrase: passphrase))
            case .password(let password):
                passwords.append((prompt, password))
            case .keyboardInteractive(let password?):
                passwords.append((prompt, password))
            case .keyboardInteractive(nil), .agent:
                break
            }
        }
    }
}
