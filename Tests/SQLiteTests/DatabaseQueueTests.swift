import Foundation
import SQLite
import XCTest

final class DatabaseQueueTests: SQLiteTestCase {
    private struct Abort: Error {}

    private let migrator = Migrator([
        Migration("create-entries") { db in
            try db.execute("CREATE TABLE entries (id INTEGER PRIMARY KEY, worker INTEGER NOT NULL, n INTEGER NOT NULL)")
        },
    ])

    private func count(_ queue: DatabaseQueue) throws -> Int {
        try queue.read { db in try db.queryFirst("SELECT count(*) FROM entries") { $0.int(0) }! }
    }

    func testOpensAndMigrates() throws {
        let queue = try DatabaseQueue(path: path(), migrator: migrator)
        XCTAssertEqual(queue.path, path())
        XCTAssertEqual(try queue.read { try Migrator.appliedMigrations($0) }, ["create-entries"])
        XCTAssertEqual(permissions(path()), 0o600)
    }

    func testWriteCommitsAndReturnsItsValue() throws {
        let queue = try DatabaseQueue(path: path(), migrator: migrator)
        let inside = try queue.write { db -> Bool in
            try db.run("INSERT INTO entries (worker, n) VALUES (?, ?)", [0, 1])
            return db.isInTransaction
        }
        XCTAssertTrue(inside, "write runs inside a transaction")
        XCTAssertEqual(try count(queue), 1)
        XCTAssertFalse(try queue.read { $0.isInTransaction })
    }

    func testWriteRollsBackOnThrow() throws {
        let queue = try DatabaseQueue(path: path(), migrator: migrator)
        XCTAssertThrowsError(try queue.write { db in
            try db.run("INSERT INTO entries (worker, n) VALUES (?, ?)", [0, 1])
            try db.run("INSERT INTO entries (worker, n) VALUES (?, ?)", [0, 2])
            throw Abort()
        }) { XCTAssertTrue($0 is Abort) }
        XCTAssertEqual(try count(queue), 0)
        try queue.write { try $0.run("INSERT INTO entries (worker, n) VALUES (?, ?)", [0, 3]) }
        XCTAssertEqual(try count(queue), 1)
    }

    func testFailingMigrationFailsInit() throws {
        let broken = Migrator([Migration("broken") { db in try db.execute("CREATE TABLE") }])
        assertSQLiteError(.other(1), try DatabaseQueue(path: path(), migrator: broken))
        // The file is left with no migration recorded, and opens cleanly with a good migrator.
        let queue = try DatabaseQueue(path: path(), migrator: migrator)
        XCTAssertEqual(try queue.read { try Migrator.appliedMigrations($0) }, ["create-entries"])
    }

    func testConcurrentWritesAllLand() throws {
        let queue = try DatabaseQueue(path: path(), migrator: migrator)
        let errors = ErrorLog()
        let workers = 8
        let writesPerWorker = 25
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for n in 0..<writesPerWorker {
                do {
                    try queue.write { db in
                        try db.run("INSERT INTO entries (worker, n) VALUES (?, ?)", [worker, n])
                    }
                } catch {
                    errors.record(error)
                }
            }
        }
        XCTAssertTrue(errors.all.isEmpty, "\(errors.all)")
        XCTAssertEqual(try count(queue), workers * writesPerWorker)
        let perWorker = try queue.read { db in
            try db.query("SELECT count(DISTINCT n) FROM entries GROUP BY worker ORDER BY worker") { $0.int(0) }
        }
        XCTAssertEqual(perWorker, Array(repeating: writesPerWorker, count: workers))
    }

    func testTwoQueuesOnOneFileSeeEachOthersCommits() throws {
        let first = try DatabaseQueue(path: path(), migrator: migrator)
        let second = try DatabaseQueue(path: path(), migrator: migrator)
        try first.write { try $0.run("INSERT INTO entries (worker, n) VALUES (?, ?)", [1, 1]) }
        XCTAssertEqual(try count(second), 1)
    }
}
