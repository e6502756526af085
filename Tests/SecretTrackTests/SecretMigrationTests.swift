import Foundation
import Replication
import SQLite
import Sodium
import Synchronization
import XCTest
@testable import SecretTrack

/// Device-only items become syncable on every unlock with a remote: idempotent, cheap after the
/// first time, pinned items untouched, bodies unchanged — and each keeps its device-only copy
/// until the remote is read back and holds the syncable body.
final class SecretMigrationTests: XCTestCase {
    private var directory = ""
    private var transport: SecretBytes!

    override func setUpWithError() throws {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("migration-XXXXXX").utf8CString)
        directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
        try FileManager.default.createDirectory(atPath: directory + "/remote", withIntermediateDirectories: true)
        transport = try SecretBytes.random(count: 32)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    private func makeStore(items: Int) throws -> SecretStore {
        let store = try SecretStore.create(at: directory + "/s.sqlite", storeID: "v", deviceID: "d", provider: .passphrase(try SecretBytes(utf8: "pw")),
                                           kdf: .insecureForTesting())
        for index in 0..<items { try store.put(try SecretBytes(utf8: "secret-\(index)"), for: "host.\(index).password") }
        return store
    }

    private func sync(_ store: SecretStore, remote: any Remote) throws -> Int {
        _ = try ZoneEngine(store: SecretZone(store: store), remote: remote, transportKey: transport).run()
        return try SecretZone(store: store).verifyMigrations(remote: remote, seal: TransportKeySeal(key: transport))
    }

    func testAThousandItemsMigrateOnceAndPinnedOnesNeverMove() throws {
        let store = try makeStore(items: 1_000)
        try store.put(try SecretBytes(utf8: "pinned"), for: "pinned.password")
        try store.pinDeviceOnly("pinned.password")
        XCTAssertEqual(try store.counts().awaitingMigration, 1_000)
        XCTAssertEqual(try store.migrateDeviceOnlyItems().count, 1_000)
        XCTAssertEqual(try store.counts().syncable, 1_000)
        XCTAssertEqual(try store.counts().pendingChanges, 1_000, "each migrated item is journaled for upload")
        XCTAssertEqual(try store.migrateDeviceOnlyItems(), [], "the second run finds nothing to do")
        XCTAssertEqual(try store.read("host.7.password").withUnsafeBytes { String(decoding: $0, as: UTF8.self) }, "secret-7")
        guard case .present(let pinned) = try store.state(of: "pinned.password") else { return XCTFail("pinned item missing") }
        XCTAssertEqual(pinned.availability, .deviceOnly)
        XCTAssertEqual(try sync(store, remote: DirectoryRemote(root: directory + "/remote")), 0)
        guard case .present(let stillPinned) = try store.state(of: "pinned.password") else { return XCTFail("pinned item missing") }
        XCTAssertEqual(stillPinned.availability, .deviceOnly)
    }

    /// A lone device compacting in the very run that sends its migrated bodies: the batches
    /// holding bodies not verified yet are kept, so every copy is verified and dropped.
    func testCompactionKeepsTheBatchesMigrationsStillHaveToReadBack() throws {
        let store = try makeStore(items: 600)
        try store.migrateDeviceOnlyItems()
        let remote = DirectoryRemote(root: directory + "/remote")
        var now = CompactionPolicy()
        now.immediate = true
        let report = try ZoneEngine(store: SecretZone(store: store), remote: remote, transportKey: transport, policy: now).run()
        XCTAssertEqual(report.snapshotsWritten, 1)
        XCTAssertEqual(report.collectedObjects, 0, "the three batches still have bodies to read back")
        XCTAssertEqual(try SecretZone(store: store).verifyMigrations(remote: remote, seal: TransportKeySeal(key: transport)), 0)
        XCTAssertEqual(try store.awaitingVerification().count, 0)
        // Verified: the next compaction may collect them (all but the newest).
        try store.put(try SecretBytes(utf8: "later"), for: "host.later.password")
        let later = try ZoneEngine(store: SecretZone(store: store), remote: remote, transportKey: transport, policy: now).run()
        XCTAssertEqual(try remote.list(prefix: "zones/secrets/d/").filter { $0.hasSuffix(".batch") }.count, 1)
        XCTAssertGreaterThan(later.collectedObjects, 0)
    }

    /// The object holding migrated bodies disappears before they were read back (collected
    /// while this device counted as retired): the bodies go out again, and the copies are
    /// dropped once the new object is read back — never kept forever.
    func testMigratedBodiesWhoseObjectIsGoneAreSentAgainAndThenVerified() throws {
        let store = try makeStore(items: 3)
        try store.migrateDeviceOnlyItems()
        let remote = DirectoryRemote(root: directory + "/remote")
        _ = try ZoneEngine(store: SecretZone(store: store), remote: remote, transportKey: transport).run()
        try store.put(try SecretBytes(utf8: "newer"), for: "host.newer.password", availability: .syncable)
        _ = try ZoneEngine(store: SecretZone(store: store), remote: remote, transportKey: transport).run()
        // Missing below the device's newest batch: collected. (A missing newest batch may still
        // be on its way and is waited for: see the test below.)
        try remote.delete("zones/secrets/d/00000000000000000001.batch")
        XCTAssertEqual(try SecretZone(store: store).verifyMigrations(remote: remote, seal: TransportKeySeal(key: transport)), 3, "nothing to read back: all kept")
        XCTAssertEqual(try store.counts().pendingChanges, 3, "and sent again")
        XCTAssertEqual(try sync(store, remote: remote), 0)
        XCTAssertEqual(try store.awaitingVerification().count, 0)
        XCTAssertNotNil(try remote.get("zones/secrets/d/00000000000000000003.batch"))
    }

    func testTheDeviceOnlyCopyStaysUntilTheRemoteIsReadBackAndHoldsTheBody() throws {
        let store = try makeStore(items: 600)
        try store.migrateDeviceOnlyItems()
        let healthy = DirectoryRemote(root: directory + "/remote")
        XCTAssertEqual(try SecretZone(store: store).verifyMigrations(remote: healthy, seal: TransportKeySeal(key: transport)), 600, "nothing sent yet")
        // The remote takes two objects (500 items) and then fails: the rest stays pending.
        let failing = FailingRemote(inner: healthy, creates: 2)
        XCTAssertThrowsError(try ZoneEngine(store: SecretZone(store: store), remote: failing, transportKey: transport).run())
        XCTAssertEqual(try SecretZone(store: store).verifyMigrations(remote: healthy, seal: TransportKeySeal(key: transport)), 100)
        XCTAssertEqual(try store.counts().awaitingVerification, 100)
        // The rest is published next; an object that does not hold what was sent verifies nothing.
        _ = try ZoneEngine(store: SecretZone(store: store), remote: healthy, transportKey: transport).run()
        let third = URL(fileURLWithPath: directory + "/remote/" + Batch.objectName(zone: "secrets", device: "d", sequence: 3))
        let published = try Data(contentsOf: third)
        try Data(repeating: 0x41, count: published.count).write(to: third)
        XCTAssertEqual(try SecretZone(store: store).verifyMigrations(remote: healthy, seal: TransportKeySeal(key: transport)), 100, "copies kept")
        try FileManager.default.removeItem(at: third)
        XCTAssertEqual(try SecretZone(store: store).verifyMigrations(remote: healthy, seal: TransportKeySeal(key: transport)), 100, "still kept")
        try published.write(to: third)
        XCTAssertEqual(try SecretZone(store: store).verifyMigrations(remote: healthy, seal: TransportKeySeal(key: transport)), 0, "a later run finishes")
        XCTAssertEqual(try store.counts().awaitingVerification, 0)
        XCTAssertEqual(try store.read("host.599.password").withUnsafeBytes { String(decoding: $0, as: UTF8.self) }, "secret-599")
    }

    func testDeletingAMigratedItemDropsItsCopyToo() throws {
        let store = try makeStore(items: 3)
        try store.migrateDeviceOnlyItems()
        try store.delete("host.1.password")
        XCTAssertEqual(try store.awaitingVerification().map(\.reference), ["host.0.password", "host.2.password"])
    }

    func testMigrationNeedsTheKeyAndLeavesItemsAloneWithout() throws {
        let path = directory + "/s.sqlite"
        let store = try SecretStore.create(at: path, storeID: "v", deviceID: "d", provider: .passphrase(try SecretBytes(utf8: "pw")), kdf: .insecureForTesting())
        try store.put(try SecretBytes(utf8: "x"), for: "a.password")
        XCTAssertThrowsError(try SecretStore.open(at: path).migrateDeviceOnlyItems()) { XCTAssertEqual(($0 as? SecretError)?.code, .locked) }
        XCTAssertEqual(try store.counts().awaitingMigration, 1)
    }
}

/// A directory remote that accepts `creates` new objects and then fails like an unmounted one.
private final class FailingRemote: Remote {
    let inner: DirectoryRemote
    private let budget: Mutex<Int>

    init(inner: DirectoryRemote, creates: Int) {
        self.inner = inner
        budget = Mutex(creates)
    }

    var location: String { inner.location }
    func list(prefix: String) throws -> [String] { try inner.list(prefix: prefix) }
    func get(_ name: String) throws -> [UInt8]? { try inner.get(name) }
    func delete(_ name: String) throws { try inner.delete(name) }

    func createOnly(_ name: String, bytes: [UInt8]) throws -> CreateOutcome {
        guard budget.withLock({ count in defer { count -= 1 }; return count > 0 }) else {
            throw ReplicationError(.unreachable, "the remote went away")
        }
        return try inner.createOnly(name, bytes: bytes)
    }
}
