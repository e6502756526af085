import CredentialVault

/// A new vault passphrase (`unlock-method add passphrase`, `passphrase change`): from
/// `--new-passphrase-file`, or asked twice on the terminal.
enum NewPassphrase {
    static let option = CommandSpec.Option(name: "--new-passphrase-file", value: "FILE", help: "Read the new passphrase from FILE instead of asking for it twice.")

    static func read(_ parsed: ParsedCommand) throws -> SecretBytes {
        if let file = parsed.value(option.name) { return try SecretInput.file(file, what: "new passphrase") }
        guard Output.isTerminal(0) || Output.isTerminal(2) else {
            throw CLIError(message: "A new passphrase is needed and there is no terminal to ask for it.", hint: "Give --new-passphrase-file FILE.", status: ExitStatus.locked)
        }
        let passphrase = try TerminalPrompt.ask("New vault passphrase")
        guard try TerminalPrompt.ask("Repeat the passphrase") == passphrase else { throw CLIError.input("The two passphrases differ.") }
        return passphrase
    }
}
