import CredentialVault

struct IdentityAddCommand: Command {
    static let path = ["identity", "add"]
    static let spec = CommandSpec(
        path: path,
        summary: "Import a private key file (OpenSSH or PEM) as an identity.",
        overview: "Import a private key file (OpenSSH or PEM; ed25519, ecdsa, rsa; encrypted or not) as an identity. The key is sealed in the vault; its public key is kept in config. A PEM key needs its public key beside it as FILE.pub. An encrypted key's passphrase (--passphrase-stdin, or asked on a terminal: empty stores none) is checked with OpenSSH's ssh-keygen before anything is stored; a wrong one is refused (77).",
        usage: ["identity add LABEL --private-key FILE [--user U] [--passphrase-stdin] [--confirm]"],
        options: [
            .init(name: "--private-key", value: "FILE", help: "The private key file to import."),
            IdentityOptions.user,
            .init(name: "--passphrase-stdin", value: nil, help: "Read the key's passphrase from standard input, check that it opens the key, and store it too."),
            IdentityOptions.confirm,
        ],
        positionals: 1...1,
        examples: ["credctl identity add laptop --private-key ~/.ssh/id_ed25519",
                   "printf %s \"$KEY_PASS\" | credctl identity add deploy --private-key deploy_rsa --passphrase-stdin"])

    let label: String
    let keyPath: String
    let parsed: ParsedCommand

    init(_ parsed: ParsedCommand) throws {
        guard let keyPath = parsed.value("--private-key") else { throw UsageError("identity add needs --private-key FILE.", command: Self.spec) }
        self.label = parsed.positionals[0]
        self.keyPath = keyPath
        self.parsed = parsed
    }

    func run(_ context: Context) throws {
        let given = parsed.flag("--passphrase-stdin") ? try SecretInput.standardInput(what: "key passphrase") : nil
        let key = try PrivateKeyFile.load(path: keyPath)
        if given != nil && !key.isEncrypted {
            throw CLIError.input("The key \(keyPath) is not encrypted, so it has no passphrase to store.", hint: "Add it without --passphrase-stdin.")
        }
        let passphrase = try KeyPassphrase.checked(given, key: key, keyPath: keyPath, label: label, context: context)
        let vault = try context.openVault()
        try context.unlockForWriting(vault)
        let identity = try vault.addIdentity(label: label, privateKeyPath: keyPath, username: parsed.value("--user"), passphrase: passphrase,
                                             confirm: parsed.flag("--confirm"))
        let passphraseNote = identity.passphraseRef != nil ? ", passphrase checked and stored" : key.isEncrypted ? ", encrypted, no passphrase stored" : ""
        Output.out("Added identity '\(identity.label)' (\(identity.keyType.rawValue)\(passphraseNote)\(identity.confirm ? ", each use confirmed" : "")).\n")
    }
}
