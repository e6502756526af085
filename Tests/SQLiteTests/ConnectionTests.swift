import Foundation
import SQLite
import XCTest

final class ConnectionTests: SQLiteTestCase {
    func testCreatesDatabaseAndWALFilesPrivate() throws {
        // With a permissive umask the mode must still be 0600: it is set explicitly, not inherited.
        let previous = umask(0)
        defer { umask(previous) }
        let db = try Connection(path: path())
        XCTAssertEqual(db.path, path())
        XCTAssertEqual(permissions(path()), 0o600)

        try db.execute("CREATE TABLE t (x)")
        try db.run("INSERT INTO t VALUES (?)", [1])
        let wal = try XCTUnwrap(permissions(path() + "-wal"), "the -wal file should exist after a write")
        XCTAssertEqual(wal & 0o077, 0, "-wal mode \(String(wal, radix: 8)) is readable by others")
        if let shm = permissions(path() + "-shm") {
            XCTAssertEqual(shm & 0o077, 0, "-shm mode \(String(shm, radix: 8)) is readable by others")
        }
        XCTAssertEqual(permissions(path()), 0o600)
    }

    func testPragmas() throws {
        let db = try Connection(path: path())
        XCTAssertEqual(try db.queryFirst("PRAGMA journal_mode") { $0.text(0) }, "wal")
        XCTAssertEqual(try db.queryFirst("PRAGMA foreign_keys") { $0.int(0) }, 1)
        XCTAssertEqual(try db.queryFirst("PRAGMA synchronous") { $0.int(0) }, 2, "FULL")
    }

    /// Rows are handed over one at a time, in the query's order; a body that throws stops the
    /// pass, and the statement is ready again for the next one.
    func testForEachVisitsRowsInOrderAndStopsOnAThrow() throws {
        struct Stop: Error {}
        let db = try Connection(path: path())
        try db.execute("CREATE TABLE t (x INTEGER)")
        for value in [3, 1, 2] { try db.run("INSERT INTO t VALUES (?)", [value]) }
        var seen: [Int] = []
        try db.forEach("SELECT x FROM t WHERE x > ? ORDER BY x", [0]) { seen.append($0.int(0)) }
        XCTAssertEqual(seen, [1, 2, 3])
        seen = []
        XCTAssertThrowsError(try db.forEach("SELECT x FROM t WHERE x > ? ORDER BY x", [0]) { row in
            seen.append(row.int(0))
            if row.int(0) == 2 { throw Stop() }
        })
        XCTAssertEqual(seen, [1, 2])
        seen = []
        try db.forEach("SELECT x FROM t WHERE x > ? ORDER BY x", [1]) { seen.append($0.int(0)) }
        XCTAssertEqual(seen, [2, 3])
    }

    /// A read transaction asked for inside one already open runs in it, and leaves it open.
    func testAReadTransactionInsideATransactionRunsInIt() throws {
        let db = try Connection(path: path())
        try db.execute("CREATE TABLE t (x INTEGER)")
        try db.execute("BEGIN DEFERRED")
        let inner = try db.readTransaction { () -> Int? in
            XCTAssertTrue(db.isInTransaction)
            return try db.queryFirst("SELECT count(*) FROM t") { $0.int(0) }
        }
        XCTAssertEqual(inner, 0)
        XCTAssertTrue(db.isInTransaction, "the inner read ended the outer transaction")
        try db.execute("COMMIT")
        XCTAssertEqual(try db.readTransaction { try db.queryFirst("SELECT count(*) FROM t") { $0.int(0) } }, 0)
        XCTAssertFalse(db.isInTransaction)
        // An inner body that throws leaves the outer transaction open.
        struct Stop: Error {}
        try db.execute("BEGIN DEFERRED")
        XCTAssertThrowsError(try db.readTransaction { throw Stop() })
        XCTAssertTrue(db.isInTransaction, "a failed inner read ended the outer transaction")
        try db.execute("COMMIT")
    }

    func testForeignKeysAreEnforced() throws {
        let db = try Connection(path: path())
        try db.execute("""
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent INTEGER NOT NULL REFERENCES parent(id));
            """)
        let error = assertSQLiteError(.constraint, try db.run("INSERT INTO child VALUES (?)", [99]))
        XCTAssertEqual(error?.resultCode, 787, "SQLITE_CONSTRAINT_FOREIGNKEY")
    }

    func testReopenKeepsData() throws {
        do {
            let db = try Connection(path: path())
            try db.execute("CREATE TABLE t (x TEXT)")
            try db.run("INSERT INTO t VALUES (?)", ["kept"])
        }
        let db = try Connection(path: path())
        XCTAssertEqual(try db.query("SELECT x FROM t") { $0.text(0) }, ["kept"])
    }

    func testTransactionCommitsOnReturn() throws {
        let db = try Connection(path: path())
        try db.execute("CREATE TABLE t (x INTEGER)")
        let result = try db.transaction { () throws -> String in
            XCTAssertTrue(db.isInTransaction)
            try db.run("INSERT INTO t VALUES (?)", [1])
            try db.run("INSERT INTO t VALUES (?)", [2])
            return "done"
        }
        XCTAssertEqual(result, "done")
        XCTAssertFalse(db.isInTransaction)
        let other = try Connection(path: path())
        XCTAssertEqual(try other.query("SELECT x FROM t ORDER BY x") { $0.int(0) }, [1, 2])
    }

    func testTransactionRollsBackOnThrow() throws {
        struct Abort: Error {}
        let db = try Connection(path: path())
        try db.execute("CREATE TABLE t (x INTEGER)")
        XCTAssertThrowsError(try db.transaction {
            try db.run("INSERT INTO t VALUES (?)", [1])
            throw Abort()
        }) { error in
            XCTAssertTrue(error is Abort)
        }
        XCTAssertFalse(db.isInTransaction)
        XCTAssertEqual(try db.queryFirst("SELECT count(*) FROM t") { $0.int(0) }, 0)
        // The connection is usable afterwards.
        try db.transaction { try db.run("INSERT INTO t VALUES (?)", [3]) }
        XCTAssertEqual(try db.queryFirst("SELECT count(*) FROM t") { $0.int(0) }, 1)
    }

    func testBusyWhenAnotherConnectionHoldsTheWriteLock() throws {
        let holder = try Connection(path: path())
        try holder.execute("CREATE TABLE t (x INTEGER)")
        let waiter = try Connection(path: path(), busyTimeoutMilliseconds: 50)
        try holder.execute("BEGIN IMMEDIATE")
        try holder.run("INSERT INTO t VALUES (?)", [1])

        let error = assertSQLiteError(.busy, try waiter.transaction { try waiter.run("INSERT INTO t VALUES (?)", [2]) })
        XCTAssertEqual(error.map { $0.resultCode & 0xff }, 5, "SQLITE_BUSY")
        XCTAssertEqual(error?.operation, "execute")
        assertSQLiteError(.busy, try waiter.run("INSERT INTO t VALUES (?)", [2]))
        XCTAssertFalse(waiter.isInTransaction)
        // Readers are not blocked in WAL mode and see only committed data.
        XCTAssertEqual(try waiter.queryFirst("SELECT count(*) FROM t") { $0.int(0) }, 0)

        try holder.execute("COMMIT")
        try waiter.run("INSERT INTO t VALUES (?)", [2])
        XCTAssertEqual(try waiter.queryFirst("SELECT count(*) FROM t") { $0.int(0) }, 2)
    }

    func testOpeningANonDatabaseFileIsCorrupt() throws {
        // Deterministic garbage (a fixed LCG), so the test never depends on chance.
        var state: UInt32 = 0x1234_5678
        let garbage = Data((0..<4096).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        })
        try garbage.write(to: URL(fileURLWithPath: path()))
        let error = assertSQLiteError(.corrupt, try Connection(path: path()))
        XCTAssertEqual(error?.resultCode, 26, "SQLITE_NOTADB")
        XCTAssertEqual(error?.description, "SQLite error 26 during execute: file is not a database")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path())), garbage, "the file must be left untouched")
    }

    func testOpeningInAMissingDirectoryFails() throws {
        let error = assertSQLiteError(.cannotOpen, try Connection(path: path("missing/test.sqlite")))
        XCTAssertEqual(error?.description, "SQLite error 0 during create: cannot create database file: no such file or directory")
    }

    func testSyntaxErrorReportsPrepare() throws {
        let db = try Connection(path: path())
        let error = assertSQLiteError(.other(1), try db.run("SELEKT 1"))
        XCTAssertEqual(error?.description, "SQLite error 1 during prepare: near \"SELEKT\": syntax error")
    }

    func testChanges() throws {
        let db = try Connection(path: path())
        try db.execute("CREATE TABLE t (x INTEGER)")
        for value in 1...5 { try db.run("INSERT INTO t VALUES (?)", [value]) }
        try db.run("UPDATE t SET x = x + 10 WHERE x > ?", [2])
        XCTAssertEqual(db.changes, 3)
        try db.run("DELETE FROM t")
        XCTAssertEqual(db.changes, 5)
    }

    func testReusedStatementsBindFreshArguments() throws {
        let db = try Connection(path: path())
        for value in 0..<3 {
            XCTAssertEqual(try db.queryFirst("SELECT ? * 2", [value]) { $0.int(0) }, value * 2)
        }
    }

    func testThrowingMapLeavesStatementReusable() throws {
        struct Stop: Error {}
        let db = try Connection(path: path())
        try db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);")
        XCTAssertThrowsError(try db.query("SELECT x FROM t ORDER BY x") { row -> Int in
            if row.int(0) == 2 { throw Stop() }
            return row.int(0)
        }) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(try db.query("SELECT x FROM t ORDER BY x") { $0.int(0) }, [1, 2, 3])
        XCTAssertEqual(try db.queryFirst("SELECT x FROM t WHERE x > ?", [5]) { $0.int(0) }, nil as Int?)
    }

    /// Short-lived processes reuse the WAL files instead of recreating them on every run.
    func testTheWALFilesOutliveTheConnectionAndStayPrivate() throws {
        do {
            let db = try Connection(path: path())
            try db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)")
        }
        for suffix in ["-wal", "-shm"] {
            XCTAssertEqual(permissions(path() + suffix), 0o600, suffix)
        }
        XCTAssertEqual(try Connection(path: path()).queryFirst("SELECT x FROM t") { $0.int(0) }, 1)
    }

    /// A kept WAL is emptied by the last close; left full, every later process would recover
    /// it and copy all of it into the database again.
    func testTheLastCloseEmptiesTheKeptWAL() throws {
        do {
            let db = try Connection(path: path())
            try db.execute("CREATE TABLE t (x BLOB)")
            try db.transaction {
                for _ in 0..<200 { try db.run("INSERT INTO t VALUES (randomblob(4000))") }
            }
            var info = stat()
            XCTAssertEqual(stat(path() + "-wal", &info), 0)
            XCTAssertGreaterThan(info.st_size, 800_000, "the WAL holds the transaction while the connection is open")
        }
        var info = stat()
        XCTAssertEqual(stat(path() + "-wal", &info), 0, "the WAL file is kept")
        XCTAssertEqual(info.st_size, 0, "the WAL is empty after the last close")
        XCTAssertEqual(try Connection(path: path()).queryFirst("SELECT count(*) FROM t") { $0.int(0) }, 200)
    }
}
