import CredentialVault

/// The sync passphrase (it unwraps the keys on the remote): from `--sync-passphrase-file`, or
/// asked on the terminal — twice when it is being chosen.
enum SyncPassphrase {
    static let option = CommandSpec.Option(name: "--sync-passphrase-file", value: "FILE",
                                           help: "Read the sync passphrase, which protects the keys on the remote, from FILE.")

    static func read(_ parsed: ParsedCommand, choosing: Bool) throws -> SecretBytes {
        if let file = parsed.value(option.name) { return try SecretInput.file(file, what: "sync passphrase") }
        guard Output.isTerminal(0) || Output.isTerminal(2) else {
            throw CLIError(message: "A sync passphrase is needed and there is no terminal to ask for it.",
                           hint: "Give --sync-passphrase-file FILE.", status: ExitStatus.locked)
        }
        let passphrase = try TerminalPrompt.ask(choosing ? "Sync passphrase (new devices will need it)" : "Sync passphrase")
        if choosing, try TerminalPrompt.ask("Repeat the sync passphrase") != passphrase { throw CLIError.input("The two sync passphrases differ.") }
        return passphrase
    }
}
