/// A Unix socket that could not be made or used, said in words.
public struct UnixSocketError: Error, CustomStringConvertible, Sendable {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
