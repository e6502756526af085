import CredentialVault
import Launch

/// What a connection's hosts need from the vault: keys for the agent (with their passphrases,
/// when opened here) and passwords for the prompts of the host they belong to. The target and
/// every jump host bring their own; a key two hops share is offered once. When two hops share a
/// prompt (same user and host name, other ports), only the first hop's password is offered:
/// the prompt cannot tell them apart, so the other is asked on the terminal rather than risk
/// sending a password to the wrong server.
struct SSHCredentialPlan {
    struct Key {
        let identity: Identity
        /// The private key file's bytes and stored passphrase, when opened here; nil when the
        /// credctl agent signs with the key it keeps.
        let body: SecretBytes?
        let passphrase: SecretBytes?

        /// The key file's bytes and stored passphrase: those opened with the plan, else read now
        /// (through the agent, which hands out a body it names, when one is the vault's source).
        func material(from vault: Vault) throws -> (body: SecretBytes, passphrase: SecretBytes?) {
            if let body { return (body, passphrase) }
            return (try vault.readSecret(identity.privateKeyRef), try identity.passphraseRef.map { try vault.readSecret($0) })
        }
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
                add(Key(identity: identity, body: key, passphrase: passphrase))
            case .keyInVault(let identity):
                add(Key(identity: identity, body: nil, passphrase: nil))
            case .password(let password), .keyboardInteractive(let password?):
                if !passwords.contains(where: { $0.prompt == prompt }) { passwords.append((prompt, password)) }
            case .agent:
                usesUserAgent = true
            case .keyboardInteractive(nil):
                break
            }
        }
    }

    private mutating func add(_ key: Key) {
        if !keys.contains(where: { $0.identity.id == key.identity.id }) { keys.append(key) }
    }
}
