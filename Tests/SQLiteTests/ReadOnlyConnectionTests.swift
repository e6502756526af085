import Foundation
import SQLite
import XCTest

/// `Connection(path:readOnly: true)`: reads a WAL database without rebuilding its index, so a
/// short-lived reader changes no file — and still sees everything committed, whoever wrote it.
final class ReadOnlyConnectionTests: SQLiteTestCase {
    /// A database of `rows` rows left as a closed writer leaves it: the log kept, empty.
    private func makeDatabase(rows: Int = 3) throws {
        let db = try Connection(path: path())
        try db.execute("CREATE TABLE t (x INTEGER)")
        for value in 1...rows { try db.run("INSERT INTO t VALUES (?)", [value]) }
    }

    /// When a file's contents last changed (a truncation or a write), in nanoseconds. Not the
    /// inode's change time: SQLite running as root gives the log and the index back to their
    /// owner with fchown, which changes nothing but that time.
    private func changeTime(_ path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
    }

    private func count(_ db: Connection) throws -> Int? { try db.queryFirst("SELECT count(*) FROM t") { $0.int(0) } }

    func testItReadsWithoutChangingAnyFileOfTheDatabase() throws {
        try makeDatabase()
        let files = [path(), path() + "-wal", path() + "-shm"]
        let before = try files.map(changeTime)
        // A writer opening the same database truncates and rebuilds the index: the check below
        // can tell the two apart.
        usleep(20_000)
        let db = try Connection(path: path(), readOnly: true)
        XCTAssertTrue(db.isReadOnly)
        XCTAssertEqual(try count(db), 3)
        XCTAssertEqual(try files.map(changeTime), before, "a read-only connection changed a file of the database")
        assertSQLiteError(.readOnly, try db.run("INSERT INTO t VALUES (4)"))
    }

    func testAWriterOpeningTheSameDatabaseDoesChangeItsIndex() throws {
        try makeDatabase()
        let before = try changeTime(path() + "-shm")
        usleep(20_000)
        let db = try Connection(path: path())
        XCTAssertEqual(try count(db), 3)
        XCTAssertNotEqual(try changeTime(path() + "-shm"), before, "the check above could not fail")
    }

    /// Another process committed rows to the log and was killed: nobody keeps an index, and the
    /// rows are only in the log. A read-only connection reads them from it.
    func testItSeesRowsOnlyTheLogHoldsWhenNoOtherProcessKeepsAnIndex() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("sqlite3 is not installed") }
        try makeDatabase()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        // .shell runs `kill -9` on sqlite3 itself ($PPID of the shell it starts): it never
        // checkpoints or closes.
        process.arguments = [path(), "PRAGMA wal_autocheckpoint=0; INSERT INTO t VALUES (4); INSERT INTO t VALUES (5);", ".shell kill -9 $PPID"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertGreaterThan(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path() + "-wal")[.size] as? Int), 0, "the rows are not in the log")
        let db = try Connection(path: path(), readOnly: true)
        XCTAssertEqual(try count(db), 5)
        XCTAssertEqual(try db.queryFirst("SELECT max(x) FROM t") { $0.int(0) }, 5)
    }

    /// Another process keeps the database open and has committed a row to the log: the reader
    /// uses that process's index, read-only.
    func testItSeesWhatAWriterInAnotherProcessStillOpenCommitted() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("sqlite3 is not installed") }
        try makeDatabase()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path()]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer { try? input.fileHandleForWriting.close(); process.waitUntilExit() }
        input.fileHandleForWriting.write(Data("PRAGMA wal_autocheckpoint=0; INSERT INTO t VALUES (4); SELECT 'written';\n".utf8))
        // Its answer says the row is committed; it stays open, keeping its index.
        var answer = Data()
        while !String(decoding: answer, as: UTF8.self).contains("written") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { return XCTFail("sqlite3 ended early") }
            answer += chunk
        }
        let db = try Connection(path: path(), readOnly: true)
        XCTAssertEqual(try count(db), 4)
    }

    func testItSeesWhatAWriterStillOpenCommitted() throws {
        try makeDatabase()
        let writer = try Connection(path: path())
        try writer.run("INSERT INTO t VALUES (4)")
        let reader = try Connection(path: path(), readOnly: true)
        XCTAssertEqual(try count(reader), 4)
    }

    /// The rule `Vault.openToRead` keeps: while a read-only connection is open, this process
    /// cannot write the database through another (SQLite shares one index per file within a
    /// process, and a connection opened meanwhile shares the read-only one). The write fails;
    /// nothing is damaged, and once both are gone a new connection writes.
    func testNoOtherConnectionOfTheProcessWritesWhileOneIsOpen() throws {
        try makeDatabase()
        var reader: Connection? = try Connection(path: path(), readOnly: true)
        XCTAssertEqual(try count(reader!), 3)
        var writer: Connection? = try Connection(path: path())
        XCTAssertThrowsError(try writer!.run("INSERT INTO t VALUES (4)"))
        reader = nil
        writer = nil
        let again = try Connection(path: path())
        try again.run("INSERT INTO t VALUES (4)")
        XCTAssertEqual(try count(again), 4)
        XCTAssertEqual(try again.queryFirst("PRAGMA integrity_check") { $0.text(0) }, "ok")
    }

    /// A read-only queue reads one snapshot for its whole life, taken at its first read: a row
    /// another process commits later is not seen (its locks are taken once, not per statement).
    func testAReadOnlyQueueReadsOneSnapshot() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("sqlite3 is not installed") }
        try makeDatabase()
        let queue = try DatabaseQueue(path: path(), readOnly: true)
        XCTAssertEqual(try queue.read(count), 3)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path(), "INSERT INTO t VALUES (4);"]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(try queue.read(count), 3)
        XCTAssertEqual(try queue.snapshot(count), 3, "a snapshot inside the queue's own is that one")
        XCTAssertEqual(try Connection(path: path(), readOnly: true).queryFirst("SELECT count(*) FROM t") { $0.int(0) }, 4)
    }

    func testWithoutAnIndexFileItStillReads() throws {
        try makeDatabase()
        XCTAssertEqual(unlink(path() + "-shm"), 0)
        let db = try Connection(path: path(), readOnly: true)
        XCTAssertEqual(try count(db), 3)
    }

    func testAMissingDatabaseIsAnErrorAndNothingIsCreated() throws {
        XCTAssertThrowsError(try Connection(path: path(), readOnly: true))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path()))
    }

    /// Names SQLite would read as URI syntax reach the right file.
    func testAPathWithURICharactersOpensTheRightFile() throws {
        let name = "a b?c=d&e#f%g.sqlite"
        let db = try Connection(path: path(name))
        try db.execute("CREATE TABLE t (x INTEGER)")
        try db.run("INSERT INTO t VALUES (7)")
        let reader = try Connection(path: path(name), readOnly: true)
        XCTAssertEqual(try reader.queryFirst("SELECT x FROM t") { $0.int(0) }, 7)
    }
}
