import SQLite
import XCTest

/// Binding every `SQLValue` kind and reading it back through `Row`.
final class RowTests: SQLiteTestCase {
    private var db: Connection!

    override func setUpWithError() throws {
        try super.setUpWithError()
        db = try Connection(path: path())
        // No declared type: no affinity, so every value keeps the storage class it was bound with.
        try db.execute("CREATE TABLE v (id INTEGER PRIMARY KEY, x)")
    }

    override func tearDownWithError() throws {
        db = nil
        try super.tearDownWithError()
    }

    private func store(_ value: SQLBindable) throws -> Int {
        try db.run("INSERT INTO v (x) VALUES (?)", [value])
        return try db.queryFirst("SELECT last_insert_rowid()") { $0.int(0) }!
    }

    private func read<T>(_ id: Int, _ map: (Row) throws -> T) throws -> T {
        try db.queryFirst("SELECT x, typeof(x), length(x) FROM v WHERE id = ?", [id], map)!
    }

    func testEverySQLValueKind() throws {
        let null = try store(SQLValue.null)
        XCTAssertEqual(try read(null) { $0.text(1) }, "null")
        XCTAssertTrue(try read(null) { $0.isNull(0) })
        XCTAssertNil(try read(null) { $0.text(0) })
        XCTAssertNil(try read(null) { $0.blob(0) })

        let integer = try store(SQLValue.integer(-42))
        XCTAssertEqual(try read(integer) { $0.text(1) }, "integer")
        XCTAssertEqual(try read(integer) { $0.int64(0) }, -42)

        let real = try store(SQLValue.real(1.5))
        XCTAssertEqual(try read(real) { $0.text(1) }, "real")
        XCTAssertEqual(try db.queryFirst("SELECT x = 1.5 FROM v WHERE id = ?", [real]) { $0.bool(0) }, true)

        let text = try store(SQLValue.text("héllo ✓"))
        XCTAssertEqual(try read(text) { $0.text(1) }, "text")
        XCTAssertEqual(try read(text) { $0.text(0) }, "héllo ✓")

        let blob = try store(SQLValue.blob([0, 1, 0xff]))
        XCTAssertEqual(try read(blob) { $0.text(1) }, "blob")
        XCTAssertEqual(try read(blob) { $0.blob(0) }, [0, 1, 0xff])
    }

    func testEmptyBlobIsStoredAsEmptyNotNull() throws {
        let id = try store([UInt8]())
        XCTAssertEqual(try read(id) { $0.text(1) }, "blob")
        XCTAssertEqual(try read(id) { $0.int(2) }, 0)
        XCTAssertFalse(try read(id) { $0.isNull(0) })
        XCTAssertEqual(try read(id) { $0.blob(0) }, [])
    }

    func testEmptyTextIsStoredAsEmptyNotNull() throws {
        let id = try store("")
        XCTAssertEqual(try read(id) { $0.text(1) }, "text")
        XCTAssertEqual(try read(id) { $0.text(0) }, "")
    }

    func testSwiftBindables() throws {
        XCTAssertEqual(try read(try store(7)) { $0.int(0) }, 7)
        XCTAssertEqual(try read(try store(Int64.min)) { $0.int64(0) }, .min)
        XCTAssertEqual(try read(try store(true)) { [$0.text(1), $0.bool(0) ? "true" : "false"] }, ["integer", "true"])
        XCTAssertEqual(try read(try store(false)) { $0.int(0) }, 0)
        XCTAssertEqual(try read(try store(2.25)) { $0.text(1) }, "real")
        XCTAssertEqual(try read(try store("plain")) { $0.text(0) }, "plain")
        XCTAssertEqual(try read(try store([UInt8](repeating: 9, count: 3))) { $0.blob(0) }, [9, 9, 9])
        XCTAssertTrue(try read(try store(Optional<Int>.none)) { $0.isNull(0) })
        XCTAssertEqual(try read(try store(Optional("some"))) { $0.text(0) }, "some")
        XCTAssertTrue(try read(try store(Optional<[UInt8]>.none)) { $0.isNull(0) })
    }

    func testUInt64RoundTrip() throws {
        for value: UInt64 in [0, 1, 1 << 32, UInt64(Int64.max), UInt64(Int64.max) + 1, .max] {
            XCTAssertEqual(try read(try store(value)) { $0.uint64(0) }, value, "\(value)")
        }
    }

    func testUInt64OrderingBelow2To63() throws {
        try db.execute("DELETE FROM v")
        for value: UInt64 in [5, 1 << 40, 0, UInt64(Int64.max), 17] { _ = try store(value) }
        XCTAssertEqual(try db.query("SELECT x FROM v ORDER BY x") { $0.uint64(0) }, [0, 5, 17, 1 << 40, UInt64(Int64.max)])
    }

    func testQueryMapsEveryRowAndQueryFirstMayBeEmpty() throws {
        for value in 1...3 { _ = try store(value) }
        XCTAssertEqual(try db.query("SELECT x FROM v ORDER BY id") { $0.int(0) }, [1, 2, 3])
        XCTAssertNil(try db.queryFirst("SELECT x FROM v WHERE id = ?", [99]) { $0.int(0) })
        XCTAssertEqual(try db.query("SELECT x FROM v WHERE id > ?", [99]) { $0.int(0) }, [])
    }

    /// Text containing U+0000 must survive a round trip; SQLite supports it when the length is
    /// passed explicitly.
    func testTextWithEmbeddedNUL() throws {
        let id = try store("before\u{0}after")
        let stored = try read(id) { $0.text(0) }
        XCTAssertEqual(stored, "before\u{0}after")
    }

    func testARowOfValuesReadsLikeADatabaseRow() {
        let row = Row(values: [.integer(7), .text("seven"), .null, .blob([1, 2]), .real(2.9)])
        XCTAssertEqual(row.int(0), 7)
        XCTAssertEqual(row.text(1), "seven")
        XCTAssertTrue(row.isNull(2))
        XCTAssertNil(row.text(2))
        XCTAssertEqual(row.blob(3), [1, 2])
        XCTAssertEqual(row.int64(4), 2)
        XCTAssertEqual(row.int(1), 0, "text read as a number is 0, as SQLite would convert it")
        XCTAssertTrue(row.isNull(9), "past the end is NULL")
    }
}
