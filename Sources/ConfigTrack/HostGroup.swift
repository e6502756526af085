import Identifiers
import Replication
import SQLite

/// A folder of hosts; groups nest through an optional parent.
public struct HostGroup: Sendable, Equatable, Identifiable {
    public let id: UUID
    public var label: String
    public var parentID: UUID?
    public internal(set) var version: RecordVersion?

    public init(id: UUID = UUID(), label: String, parentID: UUID? = nil) {
        self.id = id
        self.label = label
        self.parentID = parentID
    }
}

extension HostGroup: LabeledRecord {
    static let kind = "group"
    static let table = "host_groups"
    static let columns = ["label", "parent_id"]
    static let fieldGroups = [FieldGroup("label", [0]), FieldGroup("parent", [1])]
    static let selectSQL = makeSelectSQL()
    static let insertSQL = makeInsertSQL()
    static let selectColumnsSQL = makeSelectColumnsSQL()
    static let selectByIDSQL = selectSQL + " WHERE id = ?"

    var columnValues: [SQLBindable] { [label, parentID.map(CanonicalUUID.text)] }

    init(row: Row) throws {
        self.init(id: try Self.uuid(from: row, at: 0), label: row.text(1) ?? "", parentID: Self.optionalUUID(from: row, at: 2))
        version = Self.version(from: row, at: 3)
    }
}
