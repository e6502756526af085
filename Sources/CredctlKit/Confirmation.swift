import CredentialVault

/// A yes/no question before a change that cannot be taken back (approving or revoking a device):
/// asked on the terminal unless `--yes`; with no terminal to ask on, refused unless `--yes`.
enum Confirmation {
    static func ask(_ question: String, yes: Bool) throws {
        guard !yes else { return }
        guard let answer = try TerminalPrompt.ask(prompt: question + " [y/N] ", echo: true, what: "answer") else {
            throw CLIError(message: "There is no terminal to ask whether to go ahead.", hint: "Give --yes to go ahead without asking.", status: ExitStatus.usage)
        }
        let text = answer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }.lowercased()
        guard text == "y" || text == "yes" else { throw CLIError(message: "Nothing was changed.", hint: nil, status: ExitStatus.failure) }
    }
}
