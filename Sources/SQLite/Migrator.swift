/// Applies ordered, named migrations, each in its own transaction, recording every applied name
/// in `schema_migrations`.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(_ migrations: [Migration]) {
        precondition(Set(migrations.map(\.name)).count == migrations.count, "migration names must be unique")
        self.migrations = migrations
    }

    /// Brings `db` up to date. Refuses a database that has migrations this build does not know
    /// (it was written by a newer build) rather than guessing at its shape.
    public func migrate(_ db: Connection) throws {
        if db.isReadOnly { return try checkCurrent(db) }
        try db.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                position INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE
            )
            """)
        let applied = try db.query("SELECT name FROM schema_migrations ORDER BY position") { $0.text(0) ?? "" }
        let known = migrations.map(\.name)
        guard applied.count <= known.count, Array(known.prefix(applied.count)) == applied else {
            let unknown = applied.first { !known.contains($0) } ?? applied.last ?? "?"
            throw SQLiteError(code: .schemaTooNew, resultCode: 0, operation: "migrate",
                              message: "the database has migration '\(unknown)', which this build does not know; it was written by a newer version")
        }
        for (position, migration) in migrations.enumerated().dropFirst(applied.count) {
            try db.transaction {
                // Another process may have applied it since the list above was read.
                let done = try db.queryFirst("SELECT 1 FROM schema_migrations WHERE name = ?", [migration.name]) { _ in true } ?? false
                guard !done else { return }
                try migration.apply(db)
                try db.run("INSERT INTO schema_migrations (position, name) VALUES (?, ?)", [position, migration.name])
            }
        }
    }

    /// A database this process cannot write is read as it is, when it needs no migration.
    private func checkCurrent(_ db: Connection) throws {
        let applied = try db.query("SELECT name FROM schema_migrations ORDER BY position") { $0.text(0) ?? "" }
        guard applied == migrations.map(\.name) else {
            throw SQLiteError(code: .readOnly, resultCode: 0, operation: "migrate",
                              message: applied.count > migrations.count ? "the database was written by a newer version"
                                  : "the database was written by an older version and must be upgraded, which needs write access")
        }
    }

    /// Names of the migrations applied to `db`, in order.
    public static func appliedMigrations(_ db: Connection) throws -> [String] {
        try db.query("SELECT name FROM schema_migrations ORDER BY position") { $0.text(0) ?? "" }
    }
}
