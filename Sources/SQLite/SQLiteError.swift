/// The one error type of the `SQLite` module.
///
/// It records the SQLite result code, the operation that failed and SQLite's own message; it
/// never records SQL arguments, so a bound secret or user value cannot leak through an error.
public struct SQLiteError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Code: Sendable, Equatable {
        /// Another connection holds the lock and the busy timeout expired.
        case busy
        /// A UNIQUE, NOT NULL, CHECK or FOREIGN KEY constraint was violated.
        case constraint
        /// The file is not a database, or is damaged.
        case corrupt
        /// The file cannot be opened or created.
        case cannotOpen
        /// The database is read-only (permissions or a read-only open).
        case readOnly
        /// The schema was written by a newer build (unknown migrations).
        case schemaTooNew
        /// Any other SQLite failure; the primary result code is kept.
        case other(Int32)
    }

    public let code: Code
    /// SQLite's extended result code (0 for errors that do not come from SQLite).
    public let resultCode: Int32
    /// The operation that failed, for example `prepare` or `step`.
    public let operation: String
    public let message: String

    public init(code: Code, resultCode: Int32, operation: String, message: String) {
        self.code = code
        self.resultCode = resultCode
        self.operation = operation
        self.message = message
    }

    /// A write refused because this process can only read the database says just that.
    public var description: String { code == .readOnly && resultCode == 0 ? message : "SQLite error \(resultCode) during \(operation): \(message)" }

    public static func == (lhs: SQLiteError, rhs: SQLiteError) -> Bool { lhs.code == rhs.code }
}
