import CredentialVault

/// A failure of the command-line layer itself (reading input, refusing a terminal).
struct CLIError: Error {
    let message: String
    let hint: String?
    let status: Int32

    static func input(_ message: String, hint: String? = nil) -> CLIError {
        CLIError(message: message, hint: hint, status: ExitStatus.dataError)
    }
}
