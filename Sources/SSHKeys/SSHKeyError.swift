/// The one error type of the `SSHKeys` module.
///
/// Equality is by `kind`, so callers (the agent) and tests can match the exact failure. Messages
/// say what failed and why; they never contain key material, a passphrase, or the file's text.
public struct SSHKeyError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable {
        /// The passphrase does not open the encrypted key.
        case wrongPassphrase
        /// The key is encrypted and no passphrase (or an empty one) was given.
        case passphraseNeeded
        /// A kind of key or encryption this module cannot use: a security key, which signs only
        /// with its hardware token, an unknown key type or cipher, or more KDF rounds than allowed.
        case unsupported
        /// The bytes are not a well-formed private key, or its private and public halves disagree.
        case malformed
        /// The key is well-formed but is not the key of the public blob the vault recorded.
        case mismatch
        /// Something the key needs is not there: libcrypto (Debian's libssl3) for RSA, ECDSA, DSA,
        /// PEM and AES- or 3DES-encrypted keys, guarded memory, or a digest OpenSSL refuses.
        case unavailable
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// "Unable to open the SSH private key: REASON."
    static func opening(_ kind: Kind, _ reason: String) -> SSHKeyError {
        SSHKeyError(kind, "Unable to open the SSH private key: \(reason).")
    }

    static let wrongPassphrase = opening(.wrongPassphrase, "the passphrase is wrong")
    static let passphraseNeeded = opening(.passphraseNeeded, "it is encrypted and no passphrase was given")
    static let mismatch = opening(.mismatch, "it is not the key whose public key the vault recorded")

    public var description: String { message }

    public static func == (lhs: SSHKeyError, rhs: SSHKeyError) -> Bool { lhs.kind == rhs.kind }
}
