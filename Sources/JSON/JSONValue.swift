/// A parsed JSON document (RFC 8259). A number keeps its literal text, so an integer converts
/// exactly, whatever its size, and a fraction only where a fraction is asked for.
public enum JSONValue: Equatable, Sendable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null
}

/// Why bytes are not a document this module reads, or a value cannot be written as one.
public struct JSONError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
