import SQLite
import XCTest

final class SQLiteErrorTests: SQLiteTestCase {
    func testConstraintViolationDoesNotLeakTheBoundValue() throws {
        let db = try Connection(path: path())
        try db.execute("CREATE TABLE secrets (id INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE)")
        try db.run("INSERT INTO secrets (value) VALUES (?)", ["s3cr3t-value"])
        let error = try XCTUnwrap(assertSQLiteError(.constraint, try db.run("INSERT INTO secrets (value) VALUES (?)", ["s3cr3t-value"])))
        XCTAssertEqual(error.resultCode, 2067, "SQLITE_CONSTRAINT_UNIQUE")
        XCTAssertEqual(error.operation, "step")
        XCTAssertEqual(error.description, "SQLite error 2067 during step: UNIQUE constraint failed: secrets.value")
        var dumped = ""
        dump(error, to: &dumped)
        for text in [error.description, error.message, "\(error)", String(reflecting: error), error.localizedDescription, dumped] {
            XCTAssertFalse(text.contains("s3cr3t"), text)
        }
    }

    func testCheckAndNotNullViolationsAreConstraint() throws {
        let db = try Connection(path: path())
        try db.execute("CREATE TABLE t (value TEXT NOT NULL CHECK (length(value) < 5))")
        let check = assertSQLiteError(.constraint, try db.run("INSERT INTO t VALUES (?)", ["s3cr3t-value"]))
        XCTAssertEqual(check?.resultCode, 275, "SQLITE_CONSTRAINT_CHECK")
        XCTAssertFalse(check?.description.contains("s3cr3t") ?? true)
        let notNull = assertSQLiteError(.constraint, try db.run("INSERT INTO t VALUES (?)", [SQLValue.null]))
        XCTAssertEqual(notNull?.resultCode, 1299, "SQLITE_CONSTRAINT_NOTNULL")
    }

    func testEqualityIsByCode() {
        XCTAssertEqual(SQLiteError(code: .busy, resultCode: 5, operation: "step", message: "a"),
                       SQLiteError(code: .busy, resultCode: 517, operation: "execute", message: "b"))
        XCTAssertNotEqual(SQLiteError(code: .busy, resultCode: 5, operation: "step", message: "a"),
                          SQLiteError(code: .constraint, resultCode: 5, operation: "step", message: "a"))
        XCTAssertNotEqual(SQLiteError.Code.other(1), .other(2))
        XCTAssertEqual(SQLiteError.Code.other(1), .other(1))
    }

    func testDescription() {
        let error = SQLiteError(code: .schemaTooNew, resultCode: 0, operation: "migrate", message: "too new")
        XCTAssertEqual(error.description, "SQLite error 0 during migrate: too new")
    }
}
