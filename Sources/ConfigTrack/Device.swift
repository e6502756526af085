import Identifiers
import Replication
import SQLite

/// A device of the vault, as it announces itself in the config zone.
public struct Device: Sendable, Equatable, Identifiable {
    public let id: UUID
    /// Defaults to the machine's host name.
    public var displayName: String
    /// Unix seconds when the device first announced itself.
    public var firstSeen: Int64
    public internal(set) var version: RecordVersion?

    public init(id: UUID, displayName: String, firstSeen: Int64) {
        self.id = id
        self.displayName = displayName
        self.firstSeen = firstSeen
    }
}

extension Device: ConfigRecord {
    static let kind = "device"
    static let table = "devices"
    static let columns = ["display_name", "first_seen"]
    static let fieldGroups = [FieldGroup("announcement", [0, 1])]
    static let selectSQL = makeSelectSQL()
    static let insertSQL = makeInsertSQL()
    static let selectColumnsSQL = makeSelectColumnsSQL()
    static let selectByIDSQL = selectSQL + " WHERE id = ?"

    var columnValues: [SQLBindable] { [displayName, firstSeen] }

    init(row: Row) throws {
        self.init(id: try Self.uuid(from: row, at: 0), displayName: row.text(1) ?? "", firstSeen: row.int64(2))
        version = Self.version(from: row, at: 3)
    }
}
