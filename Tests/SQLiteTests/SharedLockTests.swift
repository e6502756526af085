import Foundation
import SQLite
import XCTest

/// POSIX record locks belong to the process: closing any descriptor of a database file drops
/// every lock the process holds on it. Opening a second connection in the same process (the
/// agent's vault and its sync each have one) must leave the first one's locks in place, or
/// another process closing its last connection takes itself for the last user of the database
/// and checkpoints and removes the write-ahead log under the first.
final class SharedLockTests: SQLiteTestCase {
    private func runSQLite(_ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path(), sql]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testASecondConnectionKeepsTheFirstOnesLocks() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("sqlite3 is not installed") }
        let first = try Connection(path: path())
        try first.execute("CREATE TABLE t (x)")
        try first.run("INSERT INTO t VALUES (1)")
        _ = try first.queryFirst("SELECT count(*) FROM t") { $0.int(0) }
        let second = try Connection(path: path())
        _ = try second.queryFirst("SELECT count(*) FROM t") { $0.int(0) }
        // Another process writes and closes. With this process's locks in place it is not the last
        // connection, so it leaves the log where it is.
        try runSQLite("INSERT INTO t VALUES (2);")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path() + "-wal"), "another process removed the log this one still uses")
        try first.run("INSERT INTO t VALUES (3)")
        XCTAssertEqual(try second.queryFirst("SELECT count(*) FROM t") { $0.int(0) }, 3)
        XCTAssertEqual(try first.queryFirst("PRAGMA integrity_check") { $0.text(0) }, "ok")
    }
}
