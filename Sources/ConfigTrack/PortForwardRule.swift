import Identifiers
import Replication
import SQLite

/// A port forward opened with a host's connection. Refers to its host by a flat id.
public struct PortForwardRule: Sendable, Equatable, Identifiable {
    public let id: UUID
    public var hostID: UUID
    public var kind: ForwardKind
    /// The listening address; nil means ssh's default (loopback).
    public var bindAddress: String?
    public var bindPort: Int
    /// Local and remote forwards only.
    public var destinationHost: String?
    public var destinationPort: Int?
    public internal(set) var version: RecordVersion?

    public init(id: UUID = UUID(), hostID: UUID, kind: ForwardKind, bindAddress: String? = nil, bindPort: Int,
                destinationHost: String? = nil, destinationPort: Int? = nil) {
        self.id = id
        self.hostID = hostID
        self.kind = kind
        self.bindAddress = bindAddress
        self.bindPort = bindPort
        self.destinationHost = destinationHost
        self.destinationPort = destinationPort
    }

    /// The rule in ssh's own spelling: `[bind:]port:host:hostport` or `[bind:]port`.
    public var specification: String {
        let bind = bindAddress.map { ($0.contains(":") ? "[\($0)]" : $0) + ":" } ?? ""
        guard kind != .dynamic, let destinationHost, let destinationPort else { return "\(bind)\(bindPort)" }
        let destination = destinationHost.contains(":") ? "[\(destinationHost)]" : destinationHost
        return "\(bind)\(bindPort):\(destination):\(destinationPort)"
    }
}

extension PortForwardRule: ConfigRecord {
    static let kind = "forward"
    static let table = "port_forwards"
    static let columns = ["host_id", "kind", "bind_address", "bind_port", "destination_host", "destination_port"]
    /// One forward is one specification: its parts merge as one.
    static let fieldGroups = [FieldGroup("host", [0]), FieldGroup("rule", [1, 2, 3, 4, 5])]
    static let selectSQL = makeSelectSQL()
    static let insertSQL = makeInsertSQL()
    static let selectColumnsSQL = makeSelectColumnsSQL()
    static let selectByIDSQL = selectSQL + " WHERE id = ?"
    /// One host's rules; resolving reads it for every connection.
    static let selectForHostSQL = selectSQL + " WHERE host_id = ? ORDER BY id"

    var columnValues: [SQLBindable] {
        [CanonicalUUID.text(hostID), kind.rawValue, bindAddress, bindPort, destinationHost, destinationPort]
    }

    init(row: Row) throws {
        guard let kind = row.text(2).flatMap(ForwardKind.init(rawValue:)) else {
            throw ConfigError(.storage, "A port-forward record has an unknown kind.")
        }
        self.init(id: try Self.uuid(from: row, at: 0), hostID: try Self.uuid(from: row, at: 1), kind: kind,
                  bindAddress: row.text(3), bindPort: row.int(4), destinationHost: row.text(5),
                  destinationPort: row.isNull(6) ? nil : row.int(6))
        version = Self.version(from: row, at: 7)
    }
}
