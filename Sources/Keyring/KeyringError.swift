/// Why the desktop keyring could not be used. Every case means "fall back to another method";
/// the message says which, without any secret.
public struct KeyringError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// No session bus to reach a keyring through (an SSH session, a server, CI).
        case noBus
        /// A bus, but nothing provides the Secret Service on it, or it has no default collection.
        case noProvider
        /// The default collection is locked (unlocking it needs the user at the desktop).
        case locked
        /// The keyring did not answer in time (bus activation that never completes).
        case timedOut
        /// libsecret, through which the keyring is reached, could not be loaded (not installed).
        case noLibrary
        /// Anything else the keyring reported.
        case failed
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
