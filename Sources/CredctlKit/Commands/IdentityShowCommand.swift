import CredentialVault

struct IdentityShowCommand: Command {
    static let path = ["identity", "show"]
    static let spec = CommandSpec(
        path: path,
        summary: "Show one identity and its public key.",
        overview: "Show one identity and its public key. Never prints the private key or passphrase.",
        usage: ["identity show LABEL [--json]"],
        options: [],
        positionals: 1...1,
        examples: ["credctl identity show laptop", "credctl identity show laptop --json"],
        printsData: true,
        argument: .identities)

    let label: String

    init(_ parsed: ParsedCommand) throws { label = parsed.positionals[0] }

    func run(_ context: Context) throws {
        let vault = try context.openVault(toRead: true)
        let identity = try vault.identity(label)
        let key = try vault.credentialState(identity.privateKeyRef)
        let passphrase = try identity.passphraseRef.map { try vault.credentialState($0) }
        if context.json {
            guard case .object(var fields) = RecordJSON.identity(identity) else { return }
            fields += [("private_key_state", .string(key.rawValue)), ("passphrase_state", .optional(passphrase?.rawValue))]
            return Output.json(.object(fields))
        }
        Output.out([
            "Label:       \(identity.label)",
            "Id:          \(CanonicalUUID.text(identity.id))",
            "Type:        \(identity.keyType.rawValue)",
            "User:        \(identity.username ?? "-")",
            "Private key: \(key.text)",
            "Passphrase:  \(passphrase?.text ?? "none stored")",
            "Confirm use: \(identity.confirm ? "yes, each use of the key asks first" : "no")",
            "Public key:  \(identity.publicKey)",
        ].joined(separator: "\n") + "\n")
    }
}
