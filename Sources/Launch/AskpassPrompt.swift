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
            return prompt.hasPrefix("\(account)'s password:") || prompt.hasPrefix("(\(account)) ") && Self.occurs("password", in: prompt.lowercased())
        case .keyPassphrase:
            return prompt.hasPrefix("Enter passphrase for (stdin)")
        case .keyFilePassphrase:
            return prompt == "Enter passphrase: "
        }
    }

    /// Whether `prompt` asks a yes/no question (ssh's host key confirmation), whose answer is
    /// typed visibly.
    public static func isQuestion(_ prompt: String) -> Bool { occurs("(yes/no", in: prompt) }

    /// Whether `fragment` occurs in `text`, byte for byte in UTF-8. The fragments here are ASCII;
    /// String's own search would link the regex engine into every command (docs/startup.md).
    private static func occurs(_ fragment: String, in text: String) -> Bool {
        let needle = Array(fragment.utf8), haystack = Array(text.utf8)
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
