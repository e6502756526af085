/// Everything needed to connect to a host, with its credential opened.
public struct ResolvedConnection: Sendable {
    public let host: Host
    public let endpoint: Endpoint
    /// Hosts to pass through first, in connection order (the first hop first), as for `ssh -J`.
    public let jumpChain: [Endpoint]
    public let forwards: [PortForwardRule]
    public let auth: ResolvedAuth
}
