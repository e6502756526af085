/// Why a program could not be started with the credentials it was meant to get.
public struct LaunchError: Error, CustomStringConvertible, Sendable {
    public let message: String
    /// The exit status a command line should end with (127: not found, 126: not executable).
    public let status: Int32

    public init(_ message: String, status: Int32 = 1) {
        self.message = message
        self.status = status
    }

    public var description: String { message }
}
