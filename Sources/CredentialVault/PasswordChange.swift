/// What an edit does to a host's stored password.
public enum PasswordChange: Sendable {
    case keep
    case set(SecretBytes)
    case clear
}
