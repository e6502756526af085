/// The one error type of the `ConfigTrack` module. Equality is by code; messages name the record
/// by label and never include other stored values.
public struct ConfigError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable {
        /// No record with that label or id.
        case notFound
        /// Another record of the same kind already has that label.
        case alreadyExists
        /// A field failed validation (label, hostname, port, user name, reference, cycle).
        case invalid
        /// The record is still referenced by other records.
        case inUse
        /// The label matches more than one record (possible after merging two devices' edits).
        case ambiguous
        /// The record changed or disappeared between reading and saving it.
        case conflict
        /// The database failed.
        case storage
    }

    public let code: Code
    public let message: String
    public let hint: String?
    /// The underlying failure, for `storage` errors.
    public let cause: (any Error & Sendable)?

    public init(_ code: Code, _ message: String, hint: String? = nil, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
        self.cause = cause
    }

    public var description: String { message }

    public static func == (lhs: ConfigError, rhs: ConfigError) -> Bool { lhs.code == rhs.code }
}
