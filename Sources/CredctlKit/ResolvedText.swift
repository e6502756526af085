import CredentialVault

/// Human-readable `resolve` output.
enum ResolvedText {
    static func render(_ connection: ResolvedConnection, reveal: Bool) -> String {
        let endpoint = connection.endpoint
        var lines = [
            "Host:      \(connection.host.label)",
            "Connect:   \(describe(endpoint))",
        ]
        if !connection.jumpChain.isEmpty {
            lines.append("Jump:      " + connection.jumpChain.map { "\($0.label) (\(describe($0)))" }.joined(separator: " -> "))
        }
        for rule in connection.forwards { lines.append("Forward:   \(rule.kind.rawValue) \(rule.specification)") }
        var secrets: [(String, SecretBytes)] = []
        switch connection.auth {
        case .password(let password):
            lines.append("Auth:      password (stored)")
            secrets.append(("Password", password))
        case .privateKey(let key, let passphrase, let identity):
            lines.append("Auth:      publickey with identity '\(identity.label)' (\(identity.keyType.rawValue)\(passphrase != nil ? ", passphrase stored" : ""))")
            secrets.append(("Private key", key))
            if let passphrase { secrets.append(("Passphrase", passphrase)) }
        case .keyInVault(let identity):
            lines.append("Auth:      publickey with identity '\(identity.label)' (\(identity.keyType.rawValue), signed by the credctl agent)")
        case .agent(let identity):
            lines.append("Auth:      agent" + (identity.map { " offering identity '\($0.label)'" } ?? ""))
        case .keyboardInteractive(let password):
            lines.append("Auth:      keyboard-interactive" + (password != nil ? " (password stored)" : ""))
            if let password { secrets.append(("Password", password)) }
        }
        if reveal {
            for (name, secret) in secrets {
                // Bytes that are not UTF-8 would be mangled as text; they are shown as Base64.
                lines.append(secret.withUnsafeBytes { bytes in
                    if let text = String(validating: bytes, as: UTF8.self) { return "\(name):".padding(11) + text }
                    return "\(name) (Base64):".padding(11) + Base64.encode(bytes)
                })
            }
        } else if !secrets.isEmpty {
            lines.append("(secrets hidden; add --reveal to print them)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func describe(_ endpoint: Endpoint) -> String {
        (endpoint.username.map { "\($0)@" } ?? "") + "\(endpoint.hostname):\(endpoint.port)"
    }
}
