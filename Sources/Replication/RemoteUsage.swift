/// How much a remote holds: its objects and their bytes.
public struct RemoteUsage: Sendable, Equatable, Codable {
    public let objects: Int
    public let bytes: Int64

    public init(objects: Int, bytes: Int64) {
        self.objects = objects
        self.bytes = bytes
    }
}

extension Remote {
    /// Every object read once (backends answer from their listing instead).
    public func usage() throws -> RemoteUsage {
        var bytes: Int64 = 0
        let names = try list(prefix: "")
        for name in names { bytes += Int64(try get(name)?.count ?? 0) }
        return RemoteUsage(objects: names.count, bytes: bytes)
    }
}
