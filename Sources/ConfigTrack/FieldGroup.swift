import SQLite

/// Columns of a config record that only make sense together: they change together, carry one
/// version, and merge as one value (docs/concurrent-edits.md gives each kind's groups and why).
struct FieldGroup: Sendable {
    /// The name users see in `conflicts list` (`endpoint`, `auth`, …).
    let name: String
    /// Indices into the kind's `columns`.
    let columns: [Int]

    init(_ name: String, _ columns: [Int]) {
        self.name = name
        self.columns = columns
    }

    /// This group's values out of a record's column values.
    func values(of row: [SQLValue]) -> [SQLValue] { columns.map { row[$0] } }
}
