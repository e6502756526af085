import CredentialVault
import Launch

/// The passphrase stored with an identity whose private key is encrypted, checked against the
/// key file before anything is stored: a wrong one is refused at `identity add`, not found out at
/// `credctl ssh` time. OpenSSH's `ssh-keygen -y` opens the key, answered through askpass.
enum KeyPassphrase {
    /// How many passphrases a person may type before `identity add` gives up.
    static let attempts = 3

    /// The passphrase to store for the key at `keyPath`: `given` once it opens the key; else, for
    /// an encrypted key on a terminal, one typed there (empty: none); else none, said on
    /// standard error.
    static func checked(_ given: SecretBytes?, key: PrivateKeyFile, keyPath: String, label: String, context: Context) throws -> SecretBytes? {
        guard key.isEncrypted else { return given }
        if let given {
            guard try opens(given, key: key, keyPath: keyPath, context: context) else {
                throw CLIError(message: "The passphrase does not open the private key \(keyPath); nothing was stored.",
                               hint: "Give the passphrase the key was encrypted with (ssh-keygen -y -f \(keyPath) asks for it too).", status: ExitStatus.locked)
            }
            return given
        }
        guard Output.isTerminal(0) || Output.isTerminal(2) else {
            Output.err("credctl: note: \(keyPath) is encrypted and no passphrase is stored with it, so ssh asks for it at each connection. To store it, remove the identity and add it again with --passphrase-stdin.\n")
            return nil
        }
        for attempt in 1...attempts {
            guard let typed = try TerminalPrompt.ask(prompt: "Passphrase of \(keyPath) (empty: store none): ", echo: false, what: "key passphrase"),
                  typed.count > 0 else {
                Output.err("credctl: note: no passphrase is stored with '\(label)'; ssh asks for it at each connection.\n")
                return nil
            }
            if try opens(typed, key: key, keyPath: keyPath, context: context) { return typed }
            if attempt < attempts { Output.err("credctl: that passphrase does not open the key; try again (\(attempt + 1) of \(attempts)).\n") }
        }
        throw CLIError(message: "The passphrase does not open the private key \(keyPath); nothing was stored.", hint: nil, status: ExitStatus.locked)
    }

    /// Whether `passphrase` opens the key: ssh-keygen prints the key's own public key with it.
    private static func opens(_ passphrase: SecretBytes, key: PrivateKeyFile, keyPath: String, context: Context) throws -> Bool {
        let askpass = try AskpassServer(parent: OwnProgram.privateParent(context.environment))
        defer { askpass.stop() }
        let printed: String?
        do {
            printed = try KeyPassphraseCheck.publicKey(ofKeyAt: keyPath, passphrase: passphrase, askpass: askpass,
                                                       askpassProgram: try OwnProgram.path(), path: context.environment["PATH"])
        } catch let error as LaunchError {
            throw CLIError(message: error.message, hint: "Install OpenSSH's client tools (Debian: apt-get install openssh-client).", status: error.status)
        }
        guard let printed else { return false }
        return printed.split(separator: " ").prefix(2) == key.publicKey.split(separator: " ").prefix(2)
    }
}
