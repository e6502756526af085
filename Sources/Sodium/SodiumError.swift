/// The one error type of the `Sodium` module.
///
/// Equality is by `code`, so tests and callers can match on the exact failure. Messages never
/// contain key material, plaintext or ciphertext.
public struct SodiumError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable {
        /// libsodium could not be initialised.
        case initializationFailed
        /// Guarded memory could not be allocated.
        case outOfMemory
        /// A sealed blob failed authentication: wrong key, wrong context, or tampered bytes.
        case authenticationFailed
        /// A sealed blob is too short or does not carry the expected header.
        case malformed
        /// A sealed blob was written by a format version this build does not know.
        case unsupportedVersion
        /// A sealed blob was made for another purpose (its label does not match).
        case wrongPurpose
        /// An argument had the wrong size or an out-of-range value.
        case invalidArgument
        /// Key derivation failed (usually: not enough memory for the Argon2id parameters).
        case keyDerivationFailed
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    public static func == (lhs: SodiumError, rhs: SodiumError) -> Bool { lhs.code == rhs.code }
}
