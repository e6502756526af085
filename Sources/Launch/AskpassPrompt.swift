/// Which prompts of ssh or ssh-add a stored secret may answer.
public enum AskpassPrompt: Sendable, Equatable {
    /// ssh's password prompt for this account (`user@host's password:`), or its
    /// keyboard-interactive form (`(user@host) Password:`).
    case password(user: String, host: String)
    /// ssh-add's prompt for the passphrase of the key it reads from standard input.
    case keyPassphrase
    /// `ssh-keygen -y`'s prompt for the passphrase of the key file it opens.
    case keyFilePassphrase

    public func matches(_ prompt: String) -> Bool {
        switch self {
        case .password(let user, let host):
            // ssh prints the host name lowercased.
            let account = "\(user)@\(host.lowercased())"
            return prompt.hasPrefix("\(account)'s password:") || prompt.hasPrefix("(\(account)) ") && prompt.lowercased().contains("password")
        case .keyPassphrase:
            return prompt.hasPrefix("Enter passphrase for (stdin)")
        case .keyFilePassphrase:
            return prompt == "Enter passphrase: "
        }
    }
}
