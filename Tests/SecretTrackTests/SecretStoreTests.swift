import Foundation
import Replication
import SQLite
import Sodium
import XCTest
@testable import SecretTrack

final class SecretStoreTests: SecretTestCase {
    func testCreateReturnsAnUnlockedStore() throws {
        let store = try makeStore()
        XCTAssertTrue(store.isUnlocked)
        XCTAssertEqual(store.storeID, Self.storeID)
        XCTAssertEqual(store.deviceID, Self.deviceID)
        XCTAssertEqual(try store.providers(), [.passphrase])
        XCTAssertEqual(try store.passphraseParameters()?.opsLimit, KDFParameters.insecureForTesting().opsLimit)
        XCTAssertEqual(permissions(databasePath), 0o600)
    }

    func testBinaryBodiesRoundTrip() throws {
        let store = try makeStore()
        let bodies: [[UInt8]] = [[0x00], [0x00, 0x00, 0x00], [0xFF, 0xFE, 0x00, 0xC3, 0x28, 0x80, 0x00], Array(0...255),
                                 Random.bytes(count: 64 << 10)]
        for (index, bytes) in bodies.enumerated() {
            let reference = Self.reference()
            try store.put(try Self.secret(bytes), for: reference)
            let read = try store.read(reference)
            XCTAssertEqual(read.count, bytes.count, "body \(index)")
            XCTAssertTrue(read == (try Self.secret(bytes)), "body \(index) differs after a round trip")
        }
    }

    func testPutReturnsTheItemMetadata() throws {
        let store = try makeStore()
        let reference = Self.reference("privkey")
        let item = try store.put(try SecretBytes(utf8: "key"), for: reference)
        XCTAssertEqual(item.reference, reference)
        XCTAssertEqual(item.availability, .deviceOnly, "device-only is the default")
        XCTAssertFalse(item.pinned)
        XCTAssertEqual(item.incarnation, 1)
        XCTAssertEqual(item.version.device, Self.deviceID)
        XCTAssertEqual(try store.state(of: reference), .present(item))
        XCTAssertEqual(try store.items(), [item])
    }

    func testReopenedStoreIsLockedButAnswersMetadata() throws {
        let reference = Self.reference()
        var created: SecretStore? = try makeStore()
        let item = try created!.put(try SecretBytes(utf8: "hunter2"), for: reference)
        created = nil

        let store = try SecretStore.open(at: databasePath)
        XCTAssertFalse(store.isUnlocked)
        XCTAssertEqual(store.storeID, Self.storeID)
        XCTAssertEqual(store.deviceID, Self.deviceID)
        let error = assertSecretError(.locked, try store.read(reference))
        XCTAssertEqual(error?.message, "The vault is locked.")
        XCTAssertEqual(error?.hint, "Unlock it with its passphrase or key file.")
        assertSecretError(.locked, try store.put(try SecretBytes(utf8: "x"), for: Self.reference()))
        XCTAssertEqual(try store.state(of: reference), .present(item))
        XCTAssertEqual(try store.items(), [item])
        XCTAssertEqual(try store.counts().deviceOnly, 1)

        try store.unlock(try Self.passphrase())
        XCTAssertTrue(store.isUnlocked)
        XCTAssertTrue(try store.read(reference) == (try SecretBytes(utf8: "hunter2")))
    }

    func testLockForgetsTheKeys() throws {
        let store = try makeStore()
        let reference = Self.reference()
        try store.put(try SecretBytes(utf8: "x"), for: reference)
        store.lock()
        XCTAssertFalse(store.isUnlocked)
        assertSecretError(.locked, try store.read(reference))
    }

    func testReadingAnUnknownReference() throws {
        let store = try makeStore()
        let reference = Self.reference()
        XCTAssertEqual(try store.state(of: reference), .absent)
        let error = assertSecretError(.absent, try store.read(reference))
        XCTAssertEqual(error?.message, "No secret \(reference) on this device.")
        store.lock()
        assertSecretError(.absent, try store.read(reference), "absence is known without a key")
    }

    func testQuarantinedReference() throws {
        let store = try makeStore()
        let reference = Self.reference()
        let raw = try rawConnection()
        try Journal.quarantine(raw, zone: "secrets", recordName: reference, reason: "test", bytes: [1], at: RecordVersion(clock: 1, device: "x"))
        XCTAssertEqual(try store.state(of: reference), .quarantined)
        assertSecretError(.quarantined, try store.read(reference))
        XCTAssertEqual(try store.counts().quarantined, 1)
    }

    func testSyncablePutIsJournaledAndDeviceOnlyIsNot() throws {
        let store = try makeStore()
        let local = Self.reference()
        let synced = Self.reference("privkey")
        try store.put(try SecretBytes(utf8: "a"), for: local)
        let item = try store.put(try SecretBytes(utf8: "b"), for: synced, availability: .syncable)
        XCTAssertEqual(item.availability, .syncable)
        XCTAssertTrue(try store.read(synced) == (try SecretBytes(utf8: "b")))

        let pending = try store.queue.read { try Journal.pending($0) }
        XCTAssertEqual(pending, [JournalEntry(recordName: synced, kind: "secret", version: item.version, deleted: false, incarnation: 1)])

        let edited = try store.put(try SecretBytes(utf8: "c"), for: synced)
        XCTAssertEqual(edited.availability, .syncable, "an edit keeps the item's availability")
        XCTAssertEqual(try store.queue.read { try Journal.pending($0) }.map(\.version), [edited.version])
    }

    func testCounts() throws {
        let store = try makeStore()
        XCTAssertEqual(try store.counts(), SecretCounts(deviceOnly: 0, syncable: 0, awaitingMigration: 0, awaitingVerification: 0, deletionMarkers: 0, pendingChanges: 0, quarantined: 0, conflicts: 0))
        let gone = Self.reference()
        try store.put(try SecretBytes(utf8: "a"), for: Self.reference())
        try store.put(try SecretBytes(utf8: "b"), for: gone)
        try store.put(try SecretBytes(utf8: "c"), for: Self.reference(), availability: .syncable)
        try store.delete(gone)
        XCTAssertEqual(try store.counts(), SecretCounts(deviceOnly: 1, syncable: 1, awaitingMigration: 1, awaitingVerification: 0, deletionMarkers: 1, pendingChanges: 1, quarantined: 0, conflicts: 0))
    }

    func testCreatingOverAnExistingStoreFails() throws {
        _ = try makeStore()
        let error = assertSecretError(.storage, try makeStore())
        XCTAssertEqual(error?.message, "A secrets database already exists at \(databasePath).")
    }

    func testOpeningAnUninitialisedDatabaseFails() throws {
        let path = directory + "/empty.sqlite"
        let error = assertSecretError(.storage, try SecretStore.open(at: path))
        XCTAssertEqual(error?.message, "The secrets database at \(path) is not initialised.")
    }
}
