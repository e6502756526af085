import Dispatch
import Foundation
import Replication
@testable import S3
import Synchronization
import TestSupport
import XCTest

/// The S3 remote against a real SeaweedFS on 127.0.0.1: the Remote contract, create-only races,
/// and the errors a user must be able to act on.
final class S3RemoteTests: XCTestCase {
    nonisolated(unsafe) private static var shared: SeaweedServer?
    private var server: SeaweedServer!

    override func setUpWithError() throws {
        if Self.shared == nil { Self.shared = try SeaweedServer() }
        server = Self.shared
    }

    private func remote(prefix: String = "t-" + UUID().uuidString.lowercased(), conditional: Bool = true) throws -> S3Remote {
        S3Remote(location: try server.location(prefix: prefix), credentials: try server.credentials(), conditionalWrites: conditional)
    }

    func testListGetAndCreateOnlyKeepTheRemoteContract() throws {
        let remote = try remote()
        XCTAssertEqual(try remote.list(prefix: "zones/"), [])
        XCTAssertNil(try remote.get("zones/config/a/1.batch"))
        XCTAssertEqual(try remote.createOnly("zones/config/a/1.batch", bytes: [1, 2, 3]), .created)
        XCTAssertEqual(try remote.createOnly("zones/config/a/1.batch", bytes: [1, 2, 3]), .alreadyPresent, "a retried publish")
        XCTAssertThrowsError(try remote.createOnly("zones/config/a/1.batch", bytes: [9])) {
            XCTAssertEqual(($0 as? ReplicationError)?.code, .nameConflict)
        }
        XCTAssertEqual(try remote.get("zones/config/a/1.batch"), [1, 2, 3], "nothing was overwritten")
        XCTAssertEqual(try remote.createOnly("vault.json", bytes: Array("{}".utf8)), .created)
        XCTAssertEqual(try remote.list(prefix: ""), ["vault.json", "zones/config/a/1.batch"])
        XCTAssertEqual(try remote.list(prefix: "zones/"), ["zones/config/a/1.batch"])
    }

    func testAnObjectsFingerprintIsItsETagFromTheLastListing() throws {
        let remote = try remote()
        XCTAssertEqual(try remote.createOnly("zones/config/a/1.batch", bytes: [1, 2, 3]), .created)
        XCTAssertNil(try remote.fingerprint("zones/config/a/1.batch"), "nothing listed yet")
        _ = try remote.list(prefix: "zones/")
        let tag = try XCTUnwrap(try remote.fingerprint("zones/config/a/1.batch"))
        XCTAssertFalse(tag.isEmpty)
        try remote.delete("zones/config/a/1.batch")
        XCTAssertEqual(try remote.createOnly("zones/config/a/1.batch", bytes: [4, 5, 6]), .created)
        _ = try remote.list(prefix: "zones/")
        XCTAssertNotEqual(try remote.fingerprint("zones/config/a/1.batch"), tag, "other bytes, another tag")
    }

    func testDeleteRemovesAnObjectAndAMissingOneIsFine() throws {
        let remote = try remote()
        XCTAssertEqual(try remote.createOnly("zones/config/a/1.batch", bytes: [1]), .created)
        XCTAssertEqual(try remote.createOnly("zones/config/a/2.batch", bytes: [2]), .created)
        try remote.delete("zones/config/a/1.batch")
        XCTAssertNil(try remote.get("zones/config/a/1.batch"))
        XCTAssertEqual(try remote.list(prefix: ""), ["zones/config/a/2.batch"])
        try remote.delete("zones/config/a/1.batch")
        XCTAssertEqual(try remote.usage().objects, 1)
    }

    func testListingPagesThroughMoreThanOneAnswer() throws {
        let remote = try remote()
        let names = (0..<1_050).map { "zones/config/d/\(String(format: "%020d", $0)).batch" }
        DispatchQueue.concurrentPerform(iterations: 10) { slice in
            for name in names[(slice * 105)..<((slice + 1) * 105)] { _ = try? remote.createOnly(name, bytes: [1]) }
        }
        XCTAssertEqual(try remote.list(prefix: "zones/config/"), names)
    }

    func testSixteenConcurrentWritersOfOneNameExactlyOneWins() throws {
        let remote = try remote()
        XCTAssertTrue(try S3Remote.probeConditionalWrites(location: try server.location(prefix: "probe-test"), credentials: try server.credentials()))
        let collected = Mutex<[Int: String]>([:])
        DispatchQueue.concurrentPerform(iterations: 16) { writer in
            let result: String
            do {
                result = try remote.createOnly("zones/secrets/x/7.batch", bytes: Array("writer \(writer)".utf8)) == .created ? "created" : "present"
            } catch let error as ReplicationError {
                result = error.code.rawValue
            } catch {
                result = "\(error)"
            }
            collected.withLock { $0[writer] = result }
        }
        let results = (0..<16).map { collected.withLock { $0 }[$0] ?? "" }
        XCTAssertEqual(results.filter { $0 == "created" }.count, 1, "\(results)")
        XCTAssertEqual(results.filter { $0 == "nameConflict" }.count, 15, "\(results)")
        let stored = String(decoding: try XCTUnwrap(try remote.get("zones/secrets/x/7.batch")), as: UTF8.self)
        XCTAssertEqual(stored, "writer \(results.firstIndex(of: "created")!)", "the winner's bytes, whole")
    }

    func testBadCredentialsAndAMissingBucketSaySo() throws {
        let wrong = S3Remote(location: try server.location(), credentials: try server.credentials(secret: "not-the-secret"))
        XCTAssertThrowsError(try wrong.list(prefix: "")) { error in
            XCTAssertTrue("\(error)".contains("refused the credentials"), "\(error)")
            XCTAssertEqual((error as? ReplicationError)?.code, .accessDenied, "retrying will not help: the sync says so")
        }
        let missing = S3Remote(location: try server.location(bucket: "no-such-bucket"), credentials: try server.credentials())
        XCTAssertThrowsError(try missing.list(prefix: "")) { error in
            XCTAssertTrue("\(error)".contains("does not exist"), "\(error)")
            XCTAssertEqual((error as? ReplicationError)?.code, .io)
        }
        XCTAssertThrowsError(try missing.get("vault.json")) { error in
            XCTAssertTrue("\(error)".contains("does not exist"), "\(error)")
        }
    }
}
