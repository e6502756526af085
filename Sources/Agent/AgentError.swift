/// A failure of the agent or of talking to it, said in words; never carries a secret.
public struct AgentError: Error, CustomStringConvertible, Sendable {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
