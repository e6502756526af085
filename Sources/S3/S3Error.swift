/// Why the S3 store could not be used; the message names the cause a user can act on and never
/// a credential.
public struct S3Error: Error, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable {
        /// No credentials, or the store refused them (unknown key, bad signature).
        case credentials
        /// The bucket does not exist.
        case noSuchBucket
        /// The credentials may not do this.
        case accessDenied
        /// The endpoint cannot be reached or keeps failing (5xx, timeouts).
        case unreachable
        /// Anything else the store answered.
        case failed
        /// An answer larger than any object this build writes; it was not read.
        case tooLarge
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
