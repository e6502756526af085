import Identifiers
import Replication
import SQLite

/// What the store needs to know to persist and journal a record kind generically.
protocol ConfigRecord: Sendable {
    /// The record kind in record names and the journal (`host`, `group`, …).
    static var kind: String { get }
    static var table: String { get }
    /// Columns after `id`, in the order of `columnValues` and of the row handed to `init(row:)`;
    /// the two version columns always come last.
    static var columns: [String] { get }
    /// The columns that merge as one value, each column in exactly one group, in wire order.
    static var fieldGroups: [FieldGroup] { get }
    var id: UUID { get }
    var version: RecordVersion? { get set }
    var columnValues: [SQLBindable] { get }
    static var selectSQL: String { get }
    /// `INSERT OR REPLACE` of id, columns, version and field stamps, built once per type.
    static var insertSQL: String { get }
    /// The columns, version and field stamps of one record by id (no id), built once per type.
    static var selectColumnsSQL: String { get }
    /// `selectSQL` for one id.
    static var selectByIDSQL: String { get }
    /// Builds a record from a row selected as `id, columns…, version_clock, version_device`.
    init(row: Row) throws
}

extension ConfigRecord {
    /// `<kind>/<uuid>`: the record's name in the journal and on the remote.
    var recordName: String { "\(Self.kind)/\(CanonicalUUID.text(id))" }

    /// A record from its id and column values, without a version: a removed record's kept last
    /// state, or a kept value applied to it.
    static func unversioned(key: String, values: [SQLValue]) throws -> Self {
        var record = try Self(row: Row(values: [.text(key)] + values + [.integer(0), .text("")]))
        record.version = nil
        return record
    }

    /// The SELECT every read of this kind starts with. Each record type stores it once
    /// (`static let selectSQL = makeSelectSQL()`): it is built on every hot-path query otherwise.
    /// `INSERT OR REPLACE` of id, columns, version and the field groups' stamps (`fields`).
    /// A labelled kind also stores its label's key (`LabelText.key`) after those.
    static func makeInsertSQL() -> String {
        let names = ["id"] + columns + ["version_clock", "version_device", "fields", "incarnation"] + (labelColumn == nil ? [] : ["label_key"])
        return "INSERT OR REPLACE INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
    }

    /// The position of `label` among `columns`, for the kinds that have one.
    static var labelColumn: Int? { columns.firstIndex(of: "label") }

    /// The values `insertSQL` takes, in its order.
    static func insertValues(key: String, values: [SQLValue], version: RecordVersion, fields: SQLBindable, incarnation: Int64) -> [SQLBindable] {
        var row: [SQLBindable] = [key] + values.map { $0 as SQLBindable } + [version.clock, version.device, fields, incarnation]
        if let labelColumn {
            if case .text(let label) = values[labelColumn] { row.append(LabelText.key(label)) } else { row.append(SQLValue.null) }
        }
        return row
    }

    /// The columns, version and `fields` of one record by id.
    static func makeSelectColumnsSQL() -> String {
        "SELECT \((columns + ["version_clock", "version_device", "fields", "incarnation"]).joined(separator: ", ")) FROM \(table) WHERE id = ?"
    }

    static func makeSelectSQL() -> String {
        // reduce, not joined(separator:): the standard library's joined is generic code that
        // costs every process that opens the vault a run-time type lookup the first time.
        "SELECT id, " + columns.reduce("") { $0 + $1 + ", " } + "version_clock, version_device FROM \(table)"
    }

    static func version(from row: Row, at column: Int32) -> RecordVersion {
        RecordVersion(clock: row.uint64(column), device: row.text(column + 1) ?? "")
    }

    static func uuid(from row: Row, at column: Int32) throws -> UUID {
        guard let text = row.text(column), let id = CanonicalUUID.parse(text) else {
            throw ConfigError(.storage, "A \(kind) record has a malformed id.")
        }
        return id
    }

    static func optionalUUID(from row: Row, at column: Int32) -> UUID? {
        row.text(column).flatMap(CanonicalUUID.parse)
    }
}
