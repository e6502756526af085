/// Keys from several places behind one socket: listed in order (a key listed twice, once),
/// signed by the first place that signs (a place without the key refuses at once, so nothing is
/// listed again to find it).
public struct CombinedAgentKeys: SSHAgentKeys {
    public let sources: [any SSHAgentKeys]

    public init(_ sources: [any SSHAgentKeys]) { self.sources = sources }

    public func identities() -> [SSHAgentIdentity] {
        var seen: Set<[UInt8]> = []
        return sources.flatMap { $0.identities() }.filter { seen.insert($0.keyBlob).inserted }
    }

    public func sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32, forwarded: Bool) -> [UInt8]? {
        for source in sources {
            if let signature = source.sign(keyBlob: keyBlob, data: data, flags: flags, forwarded: forwarded) { return signature }
        }
        return nil
    }
}
