import Foundation
import Replication
import Sodium
import Synchronization
import XCTest
@testable import SecretTrack

/// The `keyring` backend's bookkeeping, with the keyring replaced by memory: which items exist
/// after every kind of write, rollback and sweep. (The CLI tests run it against gnome-keyring.)
final class SecretStoreExternalBodyTests: SecretTestCase {
    /// Bodies in memory; `unusable` makes every call fail as an unreachable keyring does.
    final class MemoryBodies: ExternalBodyStore, @unchecked Sendable {
        let items = Mutex<[BodyKey: [UInt8]]>([:])
        let unusable = Mutex(false)

        private func check() throws {
            if unusable.withLock({ $0 }) { throw SecretError(.locked, "The keyring cannot be used now.") }
        }

        func store(_ sealed: [UInt8], for key: BodyKey) throws { try check(); items.withLock { $0[key] = sealed } }
        func load(_ key: BodyKey) throws -> [UInt8]? { try check(); return items.withLock { $0[key] } }
        func remove(_ key: BodyKey) throws { try check(); _ = items.withLock { $0.removeValue(forKey: key) } }
        func keys(device: String) throws -> [BodyKey] { try check(); return items.withLock { Array($0.keys.filter { $0.device == device }) } }

        var count: Int { items.withLock { $0.count } }
        var incarnations: [Int64] { items.withLock { $0.keys.map(\.incarnation).sorted() } }
    }

    private struct Abort: Error {}

    private let bodies = MemoryBodies()
    private let reference = SecretTestCase.reference()

    private func makeKeyringStore(path: String? = nil, device: String = SecretTestCase.deviceID, vaultKey: SecretBytes? = nil) throws -> SecretStore {
        try SecretStore.create(at: path ?? databasePath, storeID: Self.storeID, deviceID: device, provider: try Self.passphrase(),
                               kdf: .insecureForTesting(), vaultKey: vaultKey, backend: .keyring, externalBodies: bodies)
    }

    private func column(_ reference: String) throws -> [UInt8] {
        try rawConnection().queryFirst("SELECT sealed_body FROM secret_items WHERE reference = ?", [reference]) { $0.blob(0) ?? [] } ?? []
    }

    func testEveryWriteLeavesExactlyTheCurrentBodyInTheKeyring() throws {
        let store = try makeKeyringStore()
        try store.put(try Self.secret(Array("first".utf8)), for: reference)
        XCTAssertEqual(bodies.count, 1)
        XCTAssertTrue(SecretStore.isPlaceholder(try column(reference)), "secrets.sqlite holds a placeholder, not the body")
        XCTAssertEqual(try store.read(reference), try Self.secret(Array("first".utf8)))

        try store.put(try Self.secret(Array("second".utf8)), for: reference)
        XCTAssertEqual(bodies.count, 1, "the replaced version's item went after the commit")
        XCTAssertEqual(try store.read(reference), try Self.secret(Array("second".utf8)))

        try store.delete(reference)
        XCTAssertEqual(bodies.count, 0)
        assertSecretError(.deleted, try store.read(reference))

        try store.put(try Self.secret(Array("again".utf8)), for: reference)
        XCTAssertEqual(bodies.incarnations, [2])
        try store.pinDeviceOnly(reference)
        XCTAssertEqual(bodies.count, 1)
        XCTAssertEqual(try store.read(reference), try Self.secret(Array("again".utf8)))
    }

    func testARolledBackWriteLeavesAStrayThatTheSweepRemoves() throws {
        let store = try makeKeyringStore()
        try store.put(try Self.secret(Array("kept".utf8)), for: reference)
        let stray = SecretItem(reference: Self.reference(), availability: .deviceOnly, pinned: false, incarnation: 1,
                               version: RecordVersion(clock: 1, device: Self.deviceID))
        XCTAssertThrowsError(try store.write("fail after placing a body") { db in
            _ = try store.placeBody(Array("sealed bytes".utf8), of: stray, db)
            throw Abort()
        })
        XCTAssertEqual(bodies.count, 2)
        XCTAssertEqual(try store.sweepExternalBodies(), 1)
        XCTAssertEqual(bodies.count, 1)
        XCTAssertEqual(try store.read(reference), try Self.secret(Array("kept".utf8)))
    }

    func testAMissingOrReplacedItemIsNeverTakenForTheBody() throws {
        let store = try makeKeyringStore()
        try store.put(try Self.secret(Array("original".utf8)), for: reference)
        let key = try XCTUnwrap(bodies.items.withLock { $0.keys.first })
        let other = Self.reference()
        try store.put(try Self.secret(Array("other".utf8)), for: other)
        // Another body under this body's key (a restored or edited item): not what the row names.
        bodies.items.withLock { items in items[key] = items.first { $0.key.reference == other }!.value }
        assertSecretError(.authenticationFailed, try store.read(reference))
        bodies.items.withLock { _ = $0.removeValue(forKey: key) }
        let missing = assertSecretError(.authenticationFailed, try store.read(reference))
        XCTAssertTrue(missing?.message.contains("no longer holds") ?? false)
    }

    func testAnUnusableKeyringFailsTheWriteAndChangesNothing() throws {
        let store = try makeKeyringStore()
        try store.put(try Self.secret(Array("before".utf8)), for: reference)
        bodies.unusable.withLock { $0 = true }
        assertSecretError(.locked, try store.put(try Self.secret(Array("after".utf8)), for: reference))
        assertSecretError(.locked, try store.read(reference))
        bodies.unusable.withLock { $0 = false }
        XCTAssertEqual(try store.read(reference), try Self.secret(Array("before".utf8)))
        XCTAssertEqual(bodies.count, 1)
    }

    func testMigrationKeepsTheRealBodyAsItsDeviceOnlyCopy() throws {
        let store = try makeKeyringStore()
        try store.put(try Self.secret(Array("local".utf8)), for: reference)
        XCTAssertEqual(try store.migrateDeviceOnlyItems(), [reference])
        XCTAssertEqual(bodies.count, 1)
        let copy = try rawConnection().queryFirst("SELECT sealed_body FROM migration_copies") { $0.blob(0) ?? [] } ?? []
        XCTAssertTrue(SecretZone.looksSealed(copy), "the copy is the sealed body itself, kept in secrets.sqlite")
        XCTAssertEqual(try store.read(reference), try Self.secret(Array("local".utf8)))
    }

    func testBodiesSyncBetweenAKeyringStoreAndADatabaseStore() throws {
        let remote = DirectoryRemote(root: directory + "/remote")
        try FileManager.default.createDirectory(atPath: directory + "/remote", withIntermediateDirectories: true)
        let transport = try SecretBytes.random(count: 32), vaultKey = try SecretBytes.random(count: 32)
        let a = try makeKeyringStore(path: directory + "/a.sqlite", device: "device-a", vaultKey: vaultKey)
        let b = try SecretStore.create(at: directory + "/b.sqlite", storeID: Self.storeID, deviceID: "device-b", provider: try Self.passphrase(),
                                       kdf: .insecureForTesting(), vaultKey: vaultKey)
        func sync(_ store: SecretStore) throws { try ZoneEngine(store: SecretZone(store: store), remote: remote, transportKey: transport).run() }

        try a.put(try Self.secret(Array("from-a".utf8)), for: reference, availability: .syncable)
        try sync(a)
        try sync(b)
        XCTAssertEqual(try b.read(reference), try Self.secret(Array("from-a".utf8)), "published from the keyring item")

        try b.put(try Self.secret(Array("from-b".utf8)), for: reference)
        try sync(b)
        try sync(a)
        XCTAssertEqual(try a.read(reference), try Self.secret(Array("from-b".utf8)))
        XCTAssertEqual(bodies.count, 1, "the arriving body replaced the item")

        try b.delete(reference)
        try sync(b)
        try sync(a)
        XCTAssertEqual(bodies.count, 0)
        assertSecretError(.deleted, try a.read(reference))
    }

    func testTwoDevicesOfOneVaultOnOneKeyringNeverTouchEachOthersBodies() throws {
        let vaultKey = try SecretBytes.random(count: 32)
        let a = try makeKeyringStore(path: directory + "/a.sqlite", device: "device-a", vaultKey: vaultKey)
        let b = try makeKeyringStore(path: directory + "/b.sqlite", device: "device-b", vaultKey: vaultKey)
        XCTAssertEqual(a.storeID, b.storeID, "the same vault")
        try a.put(try Self.secret(Array("a's".utf8)), for: reference)
        try b.put(try Self.secret(Array("b's".utf8)), for: reference)
        XCTAssertEqual(try b.sweepExternalBodies(), 0)
        XCTAssertEqual(try a.sweepExternalBodies(), 0)
        try b.delete(reference)
        XCTAssertEqual(try a.read(reference), try Self.secret(Array("a's".utf8)))
        XCTAssertEqual(bodies.count, 1)
    }

    func testABodyMissingFromTheKeyringIsRestoredByTheSameVersionArrivingAgain() throws {
        let remote = DirectoryRemote(root: directory + "/remote")
        try FileManager.default.createDirectory(atPath: directory + "/remote", withIntermediateDirectories: true)
        let transport = try SecretBytes.random(count: 32), vaultKey = try SecretBytes.random(count: 32)
        let source = try SecretStore.create(at: directory + "/source.sqlite", storeID: Self.storeID, deviceID: "device-s", provider: try Self.passphrase(),
                                            kdf: .insecureForTesting(), vaultKey: vaultKey)
        let keyring = try makeKeyringStore(path: directory + "/k.sqlite", device: "device-k", vaultKey: vaultKey)
        try source.put(try Self.secret(Array("kept".utf8)), for: reference, availability: .syncable)
        try ZoneEngine(store: SecretZone(store: source), remote: remote, transportKey: transport).run()
        try ZoneEngine(store: SecretZone(store: keyring), remote: remote, transportKey: transport).run()
        XCTAssertEqual(try keyring.read(reference), try Self.secret(Array("kept".utf8)))
        // The item is removed in the keyring (by hand, or a reset); the same version arrives again.
        bodies.items.withLock { $0.removeAll() }
        assertSecretError(.authenticationFailed, try keyring.read(reference))
        // The source sends its whole state again (as after a rebind): the same version, again.
        try SecretZone(store: source).requeueAll(nextSequence: try SyncTables.nextSequence(on: remote, zone: "secrets", device: "device-s"))
        try ZoneEngine(store: SecretZone(store: source), remote: remote, transportKey: transport).run()
        try ZoneEngine(store: SecretZone(store: keyring), remote: remote, transportKey: transport).run()
        XCTAssertEqual(try keyring.read(reference), try Self.secret(Array("kept".utf8)), "restored")
        XCTAssertEqual(bodies.count, 1)
    }
}
