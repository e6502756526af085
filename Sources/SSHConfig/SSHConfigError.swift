/// A file ssh itself would refuse, or one that cannot be read.
public struct SSHConfigError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
