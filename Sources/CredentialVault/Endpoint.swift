/// Where to connect and as whom.
public struct Endpoint: Sendable, Equatable {
    public let label: String
    public let hostname: String
    public let port: Int
    public let username: String?
}
