import Foundation
import Replication
import SQLite
import Sodium
import XCTest
@testable import SecretTrack

/// Device-only items become syncable on every unlock with a remote: idempotent, cheap after the
/// first time, pinned items untouched, bodies unchanged.
final class SecretMigrationTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("migration-XXXXXX").utf8CString)
        directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func testDeviceOnlyItemsBecomeSyncableOnceAndBodiesStayTheSame() throws {
        let store = try SecretStore.create(at: directory + "/s.sqlite", storeID: "v", deviceID: "d", provider: .passphrase(try SecretBytes(utf8: "pw")),
                                           kdf: .insecureForTesting())
        for index in 0..<50 { try store.put(try SecretBytes(utf8: "secret-\(index)"), for: "host.\(index).password") }
        try store.put(try SecretBytes(utf8: "pinned"), for: "pinned.password")
        try store.write("pin") { db in try db.run("UPDATE secret_items SET pinned = 1 WHERE reference = 'pinned.password'") }
        XCTAssertEqual(try store.counts().awaitingMigration, 50)
        XCTAssertEqual(try store.migrateDeviceOnlyItems(), 50)
        XCTAssertEqual(try store.counts().syncable, 50)
        XCTAssertEqual(try store.counts().pendingChanges, 50, "each migrated item is journaled for upload")
        XCTAssertEqual(try store.migrateDeviceOnlyItems(), 0, "the second run finds nothing to do")
        XCTAssertEqual(try store.read("host.7.password").withUnsafeBytes { String(decoding: $0, as: UTF8.self) }, "secret-7")
        guard case .present(let pinned) = try store.state(of: "pinned.password") else { return XCTFail("pinned item missing") }
        XCTAssertEqual(pinned.availability, .deviceOnly)
    }

    func testMigrationNeedsTheKeyAndLeavesItemsAloneWithout() throws {
        let path = directory + "/s.sqlite"
        let store = try SecretStore.create(at: path, storeID: "v", deviceID: "d", provider: .passphrase(try SecretBytes(utf8: "pw")), kdf: .insecureForTesting())
        try store.put(try SecretBytes(utf8: "x"), for: "a.password")
        XCTAssertThrowsError(try SecretStore.open(at: path).migrateDeviceOnlyItems()) { XCTAssertEqual(($0 as? SecretError)?.code, .locked) }
        XCTAssertEqual(try store.counts().awaitingMigration, 1)
    }
}
