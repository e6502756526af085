/// The one error type of the `Replication` module: remote backends and batch decoding.
public struct ReplicationError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable {
        /// The remote cannot be reached or read (missing directory, unmounted share, network).
        case unreachable
        /// The remote refused this device's credentials, or denied it access (an S3 store's
        /// 401/403). Retrying will not help until the credentials change.
        case accessDenied
        /// A create-only write found the name taken by different content: another writer uses
        /// this device's names (a cloned vault directory). Nothing was overwritten.
        case nameConflict
        /// An object name that is not allowed (empty, absolute, `..`, a control character).
        case invalidName
        /// Reading or writing an object failed.
        case io
        /// An object larger than any this build writes (64 MiB): it is not read.
        case tooLarge
        /// A sealed object did not open: sealed with another key, altered, or not yet complete.
        case authenticationFailed
        /// An object opened but its contents are not a valid batch or envelope.
        case malformed
        /// An object written in a format version this build does not know.
        case unsupportedFormat
        /// An object signed by a device the verified roster does not know (yet): left unread and
        /// looked at again when the roster grows.
        case unknownSigner
        /// An object whose signature does not verify under its writer's key, or that claims
        /// another writer than its name: never applied.
        case forged
        /// An object a revoked device wrote after its revocation: never applied.
        case revokedWriter
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    public static func == (lhs: ReplicationError, rhs: ReplicationError) -> Bool { lhs.code == rhs.code }
}
