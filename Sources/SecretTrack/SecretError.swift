/// The one error type of the `SecretTrack` module. Equality is by code; messages name the
/// reference at most, never a body, key or passphrase.
public struct SecretError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable {
        /// No key has been supplied, so bodies cannot be opened (or the keyring holding them is locked).
        case locked
        /// The desktop keyring holding the bodies cannot be reached now.
        case unavailable
        /// The supplied passphrase or key file does not open this store.
        case wrongKey
        /// No body and no deletion marker for the reference: it has not arrived.
        case absent
        /// The reference's current incarnation was deleted.
        case deleted
        /// A body for the reference arrived but was quarantined.
        case quarantined
        /// A stored body or key slot failed authentication (tampered or moved).
        case authenticationFailed
        /// An argument could not be accepted (a bad key file, an empty passphrase).
        case invalid
        /// The database or a file operation failed.
        case storage
    }

    public let code: Code
    public let message: String
    public let hint: String?

    public init(_ code: Code, _ message: String, hint: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
    }

    public var description: String { message }

    public static func == (lhs: SecretError, rhs: SecretError) -> Bool { lhs.code == rhs.code }
}
