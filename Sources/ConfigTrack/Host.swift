import Identifiers
import Replication
import SQLite

/// An SSH host: where to connect and how to authenticate. Holds no secret, only a reference.
public struct Host: Sendable, Equatable, Identifiable {
    public let id: UUID
    public var label: String
    public var hostname: String
    public var port: Int
    public var username: String?
    public var authMethod: AuthMethod
    public var identityID: UUID?
    public var groupID: UUID?
    /// The host to connect through first (`ssh -J`).
    public var jumpHostID: UUID?
    /// Where the password body lives on the secret track; always `host.<id>.password` when set.
    public var passwordRef: SecretReference?
    public internal(set) var version: RecordVersion?

    public init(id: UUID = UUID(), label: String, hostname: String, port: Int = 22, username: String? = nil,
                authMethod: AuthMethod = .agent, identityID: UUID? = nil, groupID: UUID? = nil,
                jumpHostID: UUID? = nil, passwordRef: SecretReference? = nil) {
        self.id = id
        self.label = label
        self.hostname = hostname
        self.port = port
        self.username = username
        self.authMethod = authMethod
        self.identityID = identityID
        self.groupID = groupID
        self.jumpHostID = jumpHostID
        self.passwordRef = passwordRef
    }
}

extension Host: LabeledRecord {
    static let kind = "host"
    static let table = "hosts"
    static let columns = ["label", "hostname", "port", "username", "auth_method", "identity_id", "group_id", "jump_host_id", "password_ref"]
    /// A method merges with its credentials; a hostname with its port (docs/concurrent-edits.md).
    static let fieldGroups = [FieldGroup("label", [0]), FieldGroup("endpoint", [1, 2]), FieldGroup("username", [3]), FieldGroup("auth", [4, 5, 8]),
                              FieldGroup("group", [6]), FieldGroup("jump-host", [7])]
    static let selectSQL = makeSelectSQL()
    static let insertSQL = makeInsertSQL()
    static let selectColumnsSQL = makeSelectColumnsSQL()
    static let selectByIDSQL = selectSQL + " WHERE id = ?"

    var columnValues: [SQLBindable] {
        [label, hostname, port, username, authMethod.rawValue, identityID.map(CanonicalUUID.text),
         groupID.map(CanonicalUUID.text), jumpHostID.map(CanonicalUUID.text), passwordRef?.key]
    }

    init(row: Row) throws {
        guard let method = row.text(5).flatMap(AuthMethod.init(rawValue:)) else {
            throw ConfigError(.storage, "A host record has an unknown authentication method.")
        }
        self.init(id: try Self.uuid(from: row, at: 0), label: row.text(1) ?? "", hostname: row.text(2) ?? "",
                  port: row.int(3), username: row.text(4), authMethod: method,
                  identityID: Self.optionalUUID(from: row, at: 6), groupID: Self.optionalUUID(from: row, at: 7),
                  jumpHostID: Self.optionalUUID(from: row, at: 8),
                  passwordRef: try row.text(9).map { try SecretReference(parsing: $0) })
        version = Self.version(from: row, at: 10)
    }
}
