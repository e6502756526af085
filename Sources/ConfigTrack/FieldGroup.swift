import SQLite

/// Columns of a config record that only make sense together: they change together, carry one
/// version, and merge as one value (docs/concurrent-edits.md gives each kind's groups and why).
struct FieldGroup: Sendable {
    /// The name users see in `conflicts list` (`endpoint`, `auth`, …).
    let name: String
    /// Indices into the kind's `columns`.
    let columns: [Int]
    /// The first payload format that carries the group: `FieldPayload.formatVersion` for the
    /// groups format 2 began with, a later one for a group added to its kind since. Records an
    /// older build wrote lack such a group: they read it as `unwritten`.
    let since: UInt16
    /// What a group added since format 2 holds until a device writes it.
    let unwritten: [SQLValue]

    init(_ name: String, _ columns: [Int], since: UInt16 = FieldPayload.formatVersion, unwritten: [SQLValue] = []) {
        self.name = name
        self.columns = columns
        self.since = since
        self.unwritten = unwritten
    }

    /// This group's values out of a record's column values.
    func values(of row: [SQLValue]) -> [SQLValue] { columns.map { row[$0] } }

    /// Whether the group was added after format 2 and `row` holds its unwritten values: a new
    /// record leaves it unwritten then, so builds that lack it still read the record.
    func isUnwritten(in row: [SQLValue]) -> Bool { since > FieldPayload.formatVersion && values(of: row) == unwritten }
}
