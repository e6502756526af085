/// The config records one resolution needs, read from a single snapshot.
struct ConnectionRecords {
    let host: Host
    let identity: Identity?
    let endpoint: Endpoint
    let jumpChain: [Endpoint]
    let forwards: [PortForwardRule]
}
