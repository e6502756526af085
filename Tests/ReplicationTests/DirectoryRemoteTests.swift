import Foundation
import Replication
import XCTest

/// `DirectoryRemote` on a fresh private directory (mkdtemp) per test.
final class DirectoryRemoteTests: XCTestCase {
    private(set) var directory = ""
    var remote: DirectoryRemote { DirectoryRemote(root: directory) }

    override func setUpWithError() throws {
        try super.setUpWithError()
        var template = Array((NSTemporaryDirectory() + "/directory-remote-tests.XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
        directory = String(cString: created)
    }

    override func tearDownWithError() throws {
        if !directory.isEmpty { try FileManager.default.removeItem(atPath: directory) }
        directory = ""
        try super.tearDownWithError()
    }

    // MARK: - Helpers

    /// Places a file by hand, as another device's sync tool would.
    func place(_ relative: String, _ contents: String = "x") throws {
        let url = URL(fileURLWithPath: directory + "/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    /// Every entry under the root, hidden ones included.
    func allEntries() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: directory).sorted()
    }

    func temporaryFiles() throws -> [String] {
        try allEntries().filter { $0.contains(".credvault-") }
    }

    func permissions(_ relative: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + relative)
        return (attributes[.posixPermissions] as! NSNumber).intValue
    }

    func assertCode<T>(_ code: ReplicationError.Code, _ body: @autoclosure () throws -> T,
                       _ note: String = "", file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), note, file: file, line: line) { error in
            XCTAssertEqual((error as? ReplicationError)?.code, code, "\(note): \(error)", file: file, line: line)
        }
    }

    // MARK: - Create and get

    func testCreateGetAndListRoundTripWithNestedNames() throws {
        let names = ["vault.json", "zones/config/dev1/00000000000000000001.batch", "zones/secrets/dev1/snap-00000000000000000007"]
        for (index, name) in names.enumerated() {
            XCTAssertEqual(try remote.createOnly(name, bytes: [UInt8](repeating: UInt8(index), count: 100 + index)), .created)
        }
        for (index, name) in names.enumerated() {
            XCTAssertEqual(try remote.get(name), [UInt8](repeating: UInt8(index), count: 100 + index))
        }
        XCTAssertEqual(try remote.list(prefix: ""), names)
        XCTAssertEqual(remote.location, directory)
    }

    func testAZeroByteObjectRoundTrips() throws {
        XCTAssertEqual(try remote.createOnly("empty", bytes: []), .created)
        XCTAssertEqual(try remote.get("empty"), [])
        XCTAssertEqual(try remote.createOnly("empty", bytes: []), .alreadyPresent)
        assertCode(.nameConflict, try remote.createOnly("empty", bytes: [0]))
        XCTAssertEqual(try remote.list(prefix: ""), ["empty"])
    }

    func testGetOfAnAbsentObjectIsNil() throws {
        XCTAssertNil(try remote.get("vault.json"))
        XCTAssertNil(try remote.get("zones/config/dev1/1.batch"))
        try place("vault.json")
        XCTAssertNil(try remote.get("vault.json/inside"))  // a file where a directory would be
    }

    /// Compaction removes objects: gone from reads and listings, removing one that is already
    /// gone succeeds (another device collected it first), and names are checked as for writes.
    func testDeleteRemovesAnObjectAndAMissingOneIsFine() throws {
        let name = "zones/config/dev1/00000000000000000001.batch"
        XCTAssertEqual(try remote.createOnly(name, bytes: [1]), .created)
        XCTAssertEqual(try remote.createOnly("zones/config/dev1/00000000000000000002.batch", bytes: [2]), .created)
        try remote.delete(name)
        XCTAssertNil(try remote.get(name))
        XCTAssertEqual(try remote.list(prefix: "zones/"), ["zones/config/dev1/00000000000000000002.batch"])
        try remote.delete(name)
        try remote.delete("zones/never/there")
        assertCode(.invalidName, try remote.delete("../outside"))
        XCTAssertEqual(try remote.createOnly(name, bytes: [3]), .created, "a collected name can be created again")
        assertCode(.unreachable, try DirectoryRemote(root: directory + "/missing").delete(name))
    }

    func testCreatingTheSameBytesAgainIsAlreadyPresent() throws {
        let name = "zones/config/dev1/00000000000000000001.batch"
        XCTAssertEqual(try remote.createOnly(name, bytes: Array("sealed".utf8)), .created)
        XCTAssertEqual(try remote.createOnly(name, bytes: Array("sealed".utf8)), .alreadyPresent)
        XCTAssertEqual(try remote.get(name), Array("sealed".utf8))
        XCTAssertEqual(try temporaryFiles(), [])
    }

    func testDifferentBytesUnderATakenNameConflictAndChangeNothing() throws {
        let name = "zones/config/dev1/00000000000000000001.batch"
        XCTAssertEqual(try remote.createOnly(name, bytes: Array("first".utf8)), .created)
        for other in ["second", "firs", "first!", ""] {
            XCTAssertThrowsError(try remote.createOnly(name, bytes: Array(other.utf8))) { error in
                XCTAssertEqual((error as? ReplicationError)?.code, .nameConflict)
                XCTAssertEqual("\(error)", """
                    Unable to publish object '\(name)' in \(directory): another writer (for example a copied \
                    vault directory) is writing under this device's name; nothing was overwritten.
                    """)
            }
        }
        XCTAssertEqual(try remote.get(name), Array("first".utf8))
        XCTAssertEqual(try temporaryFiles(), [])
    }

    func testPublishingLeavesNoTemporaryFiles() throws {
        for sequence in 1...5 {
            _ = try remote.createOnly("zones/config/dev1/\(sequence).batch", bytes: Array(repeating: 7, count: 70_000 * sequence))
        }
        XCTAssertEqual(try temporaryFiles(), [])
        XCTAssertEqual(try allEntries(), ["zones", "zones/config", "zones/config/dev1"] + (1...5).map { "zones/config/dev1/\($0).batch" })
    }

    func testObjectsAre0600AndCreatedDirectories0700() throws {
        _ = try remote.createOnly("zones/config/dev1/1.batch", bytes: [1])
        _ = try remote.createOnly("vault.json", bytes: [2])
        XCTAssertEqual(try permissions("zones/config/dev1/1.batch"), 0o600)
        XCTAssertEqual(try permissions("vault.json"), 0o600)
        for created in ["zones", "zones/config", "zones/config/dev1"] {
            XCTAssertEqual(try permissions(created), 0o700, created)
        }
    }

    func testInvalidNamesAreRejected() throws {
        let invalid = [
            "", "/vault.json", "zones//a", "zones/a/", "./a", "a/./b", "../a", "a/..", "..",
            ".hidden", "zones/.stversions/a", "a\u{01}b", "a\nb", "a\u{7f}", "a\u{85}b", "a\\b",
            "a.tmp", "zones/a.batch.part", "~syncthing~a.batch.tmp",
            String(repeating: "a", count: 1025), String(repeating: "a", count: 256),
        ]
        for name in invalid {
            assertCode(.invalidName, try remote.createOnly(name, bytes: [1]), name.debugDescription)
            assertCode(.invalidName, try remote.get(name), name.debugDescription)
        }
        XCTAssertEqual(try allEntries(), [])
        XCTAssertThrowsError(try remote.get("a/../b")) { error in
            XCTAssertEqual("\(error)", #"The object name "a/../b" is not allowed: it has a '.' or '..' component."#)
        }
        // The limits themselves are allowed.
        let longest = [255, 255, 255, 254].map { String(repeating: "b", count: $0) }.joined(separator: "/") + "/c"
        XCTAssertEqual(longest.utf8.count, 1024)
        XCTAssertEqual(try remote.createOnly(longest, bytes: [1]), .created)
        XCTAssertEqual(try remote.get(longest), [1])
    }

    func testAMissingRootIsUnreachable() throws {
        let missing = directory + "/not-mounted"
        let remote = DirectoryRemote(root: missing)
        let message = "The remote directory \(missing) is missing or not mounted."
        XCTAssertThrowsError(try remote.list(prefix: "")) { XCTAssertEqual(($0 as? ReplicationError)?.code, .unreachable); XCTAssertEqual("\($0)", message) }
        XCTAssertThrowsError(try remote.list(prefix: "zones/")) { XCTAssertEqual(($0 as? ReplicationError)?.code, .unreachable) }
        XCTAssertThrowsError(try remote.get("vault.json")) { XCTAssertEqual(($0 as? ReplicationError)?.code, .unreachable); XCTAssertEqual("\($0)", message) }
        XCTAssertThrowsError(try remote.createOnly("zones/a/1.batch", bytes: [1])) {
            XCTAssertEqual(($0 as? ReplicationError)?.code, .unreachable)
            XCTAssertEqual("\($0)", message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "publishing must not create the root")

        try place("a-file")
        assertCode(.unreachable, try DirectoryRemote(root: directory + "/a-file").list(prefix: ""))
    }

    func testAnObjectStillBeingWrittenIsReturnedAsItIs() throws {
        // A sync tool writing in place: the caller sees the truncated bytes and retries later.
        let name = "zones/config/dev2/00000000000000000003.batch"
        try place(name, "trunc")
        XCTAssertEqual(try remote.list(prefix: "zones/config/dev2/"), [name])
        XCTAssertEqual(try remote.get(name), Array("trunc".utf8))
    }

    func testObjectsOver64MiBAreRefused() throws {
        try place("huge.batch", "")
        XCTAssertEqual(truncate(directory + "/huge.batch", off_t(DirectoryRemote.maximumObjectSize + 1)), 0)
        XCTAssertThrowsError(try remote.get("huge.batch")) { error in
            XCTAssertEqual((error as? ReplicationError)?.code, .tooLarge)
            XCTAssertEqual("\(error)", "Unable to read object 'huge.batch' in \(directory): it is larger than 64 MiB.")
        }
    }

    func testNonRegularFilesAreNotObjects() throws {
        try place("vault.json")
        XCTAssertEqual(symlink(directory + "/vault.json", directory + "/link.json"), 0)
        XCTAssertEqual(mkfifo(directory + "/fifo.batch", 0o600), 0)
        try FileManager.default.createDirectory(atPath: directory + "/dir.batch", withIntermediateDirectories: false)
        XCTAssertEqual(try remote.list(prefix: ""), ["vault.json"])
        assertCode(.io, try remote.get("link.json"))
        assertCode(.io, try remote.get("fifo.batch"))
        assertCode(.io, try remote.get("dir.batch"))
        assertCode(.io, try remote.createOnly("dir.batch", bytes: [1]))
        XCTAssertEqual(try temporaryFiles(), [])
    }

    // MARK: - Concurrency

    /// Runs one `createOnly` per element of `contents` on its own thread, all released at once.
    func race(_ name: String, _ contents: [[UInt8]]) -> [Result<CreateOutcome, any Error>] {
        final class Outcomes: @unchecked Sendable {
            let lock = NSLock()
            var values: [Int: Result<CreateOutcome, any Error>] = [:]
        }
        let outcomes = Outcomes()
        let remote = self.remote
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for (index, bytes) in contents.enumerated() {
            done.enter()
            Thread.detachNewThread {
                start.wait()
                let result = Result { try remote.createOnly(name, bytes: bytes) }
                outcomes.lock.withLock { outcomes.values[index] = result }
                done.leave()
            }
        }
        for _ in contents { start.signal() }
        done.wait()
        return outcomes.lock.withLock { outcomes.values.sorted { $0.key < $1.key }.map(\.value) }
    }

    func testRacingWritersWithDifferentBytesCreateExactlyOnce() throws {
        for round in 0..<10 {
            let name = "zones/config/dev\(round)/00000000000000000001.batch"
            let contents = (0..<8).map { Array("writer \($0) of round \(round)".utf8) }
            let results = race(name, contents)
            let winners = results.indices.filter { (try? results[$0].get()) == .created }
            XCTAssertEqual(winners.count, 1, "round \(round)")
            for (index, result) in results.enumerated() where !winners.contains(index) {
                XCTAssertThrowsError(try result.get()) { XCTAssertEqual(($0 as? ReplicationError)?.code, .nameConflict) }
            }
            XCTAssertEqual(try remote.get(name), winners.first.map { contents[$0] })
        }
        XCTAssertEqual(try temporaryFiles(), [])
    }

    func testRacingWritersWithIdenticalBytesCreateOnceAndFindTheRestPresent() throws {
        for round in 0..<10 {
            let name = "zones/secrets/dev\(round)/00000000000000000001.batch"
            let results = race(name, Array(repeating: Array("same \(round)".utf8), count: 8))
            let outcomes = try results.map { try $0.get() }
            XCTAssertEqual(outcomes.filter { $0 == .created }.count, 1, "round \(round)")
            XCTAssertEqual(outcomes.filter { $0 == .alreadyPresent }.count, 7, "round \(round)")
        }
        XCTAssertEqual(try temporaryFiles(), [])
    }
}
