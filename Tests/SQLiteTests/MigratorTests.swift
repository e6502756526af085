import SQLite
import XCTest

final class MigratorTests: SQLiteTestCase {
    private struct Failure: Error {}

    /// Each migration notes its name in `log`, so a re-run would show up as a duplicate row.
    private static func logging(_ name: String, _ sql: String) -> Migration {
        Migration(name) { db in
            try db.execute(sql)
            try db.run("INSERT INTO log (name) VALUES (?)", [name])
        }
    }

    private let base = [
        logging("create-log", "CREATE TABLE log (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"),
        logging("create-items", "CREATE TABLE items (id INTEGER PRIMARY KEY)"),
        logging("add-items-label", "ALTER TABLE items ADD COLUMN label TEXT"),
    ]

    private func log(_ db: Connection) throws -> [String] {
        try db.query("SELECT name FROM log ORDER BY id") { $0.text(0)! }
    }

    func testAppliesInOrderOnceAndRecordsNames() throws {
        let db = try Connection(path: path())
        try Migrator(base).migrate(db)
        XCTAssertEqual(try log(db), ["create-log", "create-items", "add-items-label"])
        XCTAssertEqual(try Migrator.appliedMigrations(db), ["create-log", "create-items", "add-items-label"])
        XCTAssertEqual(try db.query("SELECT position, name FROM schema_migrations ORDER BY position") { "\($0.int(0)):\($0.text(1)!)" },
                       ["0:create-log", "1:create-items", "2:add-items-label"])
        try db.run("INSERT INTO items (label) VALUES (?)", ["works"])
    }

    func testSecondRunIsANoOp() throws {
        do {
            let db = try Connection(path: path())
            try Migrator(base).migrate(db)
        }
        // A fresh connection, as on the next launch; re-running CREATE/ALTER would throw.
        let db = try Connection(path: path())
        try Migrator(base).migrate(db)
        try Migrator(base).migrate(db)
        XCTAssertEqual(try log(db), ["create-log", "create-items", "add-items-label"])
    }

    func testAppendedMigrationAppliesAlone() throws {
        let db = try Connection(path: path())
        try Migrator(Array(base.prefix(2))).migrate(db)
        XCTAssertEqual(try log(db), ["create-log", "create-items"])
        try Migrator(base).migrate(db)
        XCTAssertEqual(try log(db), ["create-log", "create-items", "add-items-label"])
    }

    func testFailingMigrationRollsBackItsChangesAndRecordsNothing() throws {
        let db = try Connection(path: path())
        let failing = Migration("create-broken") { db in
            try db.execute("CREATE TABLE broken (x)")
            try db.run("INSERT INTO log (name) VALUES (?)", ["create-broken"])
            throw Failure()
        }
        XCTAssertThrowsError(try Migrator([base[0], failing, base[1]]).migrate(db)) { error in
            XCTAssertTrue(error is Failure, "\(error)")
        }
        XCTAssertFalse(db.isInTransaction)
        XCTAssertEqual(try Migrator.appliedMigrations(db), ["create-log"])
        XCTAssertEqual(try log(db), ["create-log"])
        XCTAssertEqual(try db.queryFirst("SELECT count(*) FROM sqlite_master WHERE name = 'broken'") { $0.int(0) }, 0)
        XCTAssertEqual(try db.queryFirst("SELECT count(*) FROM sqlite_master WHERE name = 'items'") { $0.int(0) }, 0,
                       "migrations after the failing one must not run")

        // A corrected build carries on from where the failure stopped.
        try Migrator(base).migrate(db)
        XCTAssertEqual(try Migrator.appliedMigrations(db), ["create-log", "create-items", "add-items-label"])
    }

    func testFailingSQLInMigrationSurfacesSQLiteError() throws {
        let db = try Connection(path: path())
        let bad = Migration("bad-sql") { db in try db.execute("CREATE TABLE log (x); CREATE TABLE log (y);") }
        assertSQLiteError(.other(1), try Migrator([bad]).migrate(db))
        XCTAssertEqual(try Migrator.appliedMigrations(db), [])
        XCTAssertEqual(try db.queryFirst("SELECT count(*) FROM sqlite_master WHERE name = 'log'") { $0.int(0) }, 0)
    }

    func testUnknownMigrationIsSchemaTooNew() throws {
        let db = try Connection(path: path())
        try Migrator(base + [Self.logging("from-the-future", "CREATE TABLE future (x)")]).migrate(db)
        let error = assertSQLiteError(.schemaTooNew, try Migrator(base).migrate(db))
        XCTAssertEqual(error?.description,
                       "SQLite error 0 during migrate: the database has migration 'from-the-future', which this build does not know; it was written by a newer version")
        XCTAssertEqual(try log(db).count, 4, "nothing is re-applied or undone")
    }

    func testDivergentHistoryIsSchemaTooNew() throws {
        let db = try Connection(path: path())
        try Migrator(base).migrate(db)
        let renamed = [base[0], Self.logging("create-things", "CREATE TABLE things (x)"), base[2]]
        assertSQLiteError(.schemaTooNew, try Migrator(renamed).migrate(db))
    }

    func testEmptyMigratorCreatesBookkeepingOnly() throws {
        let db = try Connection(path: path())
        try Migrator([]).migrate(db)
        XCTAssertEqual(try Migrator.appliedMigrations(db), [])
    }
}
