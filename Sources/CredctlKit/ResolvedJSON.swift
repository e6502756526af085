import CredentialVault

/// JSON for `resolve`. Secrets appear only when revealed, always under the same two names:
/// `secret_base64` (every byte, exactly) and `secret` (the text, or null when the bytes are not
/// UTF-8) — likewise `passphrase_base64` and `passphrase`.
enum ResolvedJSON {
    static func render(_ connection: ResolvedConnection, reveal: Bool) -> JSONValue {
        .object([
            ("host", .string(connection.host.label)),
            ("hostname", .string(connection.endpoint.hostname)),
            ("port", .int(connection.endpoint.port)),
            ("user", .optional(connection.endpoint.username)),
            ("jump", .array(connection.jumpChain.map(endpoint))),
            ("forwards", .array(connection.forwards.map { .object([("kind", .string($0.kind.rawValue)), ("spec", .string($0.specification))]) })),
            ("auth", auth(connection, reveal: reveal)),
        ])
    }

    static func endpoint(_ endpoint: Endpoint) -> JSONValue {
        .object([("host", .string(endpoint.label)), ("hostname", .string(endpoint.hostname)), ("port", .int(endpoint.port)), ("user", .optional(endpoint.username))])
    }

    private static func auth(_ connection: ResolvedConnection, reveal: Bool) -> JSONValue {
        var fields: [(String, JSONValue)] = [("method", .string(connection.auth.method.rawValue))]
        switch connection.auth {
        case .password(let password):
            fields.append(("reference", .optional(connection.host.passwordRef?.key)))
            if reveal { fields += secret(password, named: "secret") }
        case .privateKey(let key, let passphrase, let identity):
            fields += keyFields(identity)
            if reveal {
                fields += secret(key, named: "secret")
                if let passphrase { fields += secret(passphrase, named: "passphrase") }
            }
        case .keyInVault(let identity):
            fields += keyFields(identity)
        case .agent(let identity):
            fields.append(("identity", .optional(identity?.label)))
        case .keyboardInteractive(let password):
            fields.append(("reference", .optional(connection.host.passwordRef?.key)))
            if reveal, let password { fields += secret(password, named: "secret") }
        }
        return .object(fields)
    }

    private static func keyFields(_ identity: Identity) -> [(String, JSONValue)] {
        [("identity", .string(identity.label)), ("public_key", .string(identity.publicKey)),
         ("reference", .string(identity.privateKeyRef.key)), ("passphrase_reference", .optional(identity.passphraseRef?.key))]
    }

    private static func secret(_ secret: SecretBytes, named name: String) -> [(String, JSONValue)] {
        secret.withUnsafeBytes { bytes in
            [(name, .optional(String(validating: bytes, as: UTF8.self))), (name + "_base64", .string(Base64.encode(bytes)))]
        }
    }
}
