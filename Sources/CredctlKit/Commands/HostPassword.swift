import CredentialVault

/// The password `host add` and `host edit` store: from standard input with `--password-stdin`,
/// or — for a host that authenticates with a password and would otherwise have none — asked on
/// the terminal, twice, without echo. Without a terminal such a host is refused, so a password
/// host never silently has no password.
enum HostPassword {
    /// The password to store, or nil. `needsOne`: the host will use password authentication
    /// and has no stored password otherwise.
    static func read(_ parsed: ParsedCommand, label: String, needsOne: Bool) throws -> SecretBytes? {
        if parsed.flag("--password-stdin") { return try SecretInput.standardInput(what: "password") }
        guard needsOne else { return nil }
        guard Output.isTerminal(0) || Output.isTerminal(2) else {
            throw UsageError("Host '\(label)' uses --auth password, but no password was given and there is no terminal to ask for it; give it on standard input with --password-stdin.",
                             command: parsed.spec)
        }
        let password = try TerminalPrompt.ask("Password for \(label)")
        guard password.count > 0 else {
            throw CLIError.input("The password is empty; nothing was saved.", hint: "To be asked by the server at each connection instead, use --auth keyboard-interactive.")
        }
        guard try TerminalPrompt.ask("Repeat the password") == password else { throw CLIError.input("The two passwords differ; nothing was saved.") }
        return password
    }
}
