import Foundation
import Replication
import SQLite
import Sodium
import XCTest
@testable import SecretTrack

/// A store that joins another vault: new id and key, bodies sealed again, unlock methods intact.
final class SecretAdoptionTests: SecretTestCase {
    private let otherVault = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"

    private func present(_ store: SecretStore, _ reference: String) throws -> SecretItem? {
        if case .present(let item) = try store.state(of: reference) { return item }
        return nil
    }

    func testAdoptionResealsSyncableBodiesAndSurvivesRelocking() throws {
        let store = try makeStore()
        let syncable = Self.reference(), local = Self.reference()
        try store.put(try Self.secret(Array("shared".utf8)), for: syncable, availability: .syncable)
        try store.put(try Self.secret(Array("device".utf8)), for: local, availability: .deviceOnly)
        let before = try XCTUnwrap(present(store, syncable))
        let zone = SecretZone(store: store)
        try zone.acknowledge(try zone.pendingChanges(limit: 10), sequence: 1)
        let newKey = try SecretBytes.random(count: SealedBox.keyCount)

        XCTAssertEqual(try store.adoptVault(id: otherVault, vaultKey: newKey), 1)
        XCTAssertEqual(store.vaultID, otherVault)
        XCTAssertEqual(store.storeID, Self.storeID, "the key slots keep their binding")
        let after = try XCTUnwrap(present(store, syncable))
        XCTAssertGreaterThan(after.version, before.version, "a new version, sent like any change")
        XCTAssertEqual(try zone.pendingChanges(limit: 10).map(\.recordName), [syncable], "journaled; the device-only body stays home")
        let envelope = try XCTUnwrap(try zone.pendingChanges(limit: 10).first)
        let sealed = try XCTUnwrap(SecretPayload.decode(envelope.payload, version: envelope.version)?.sealed)
        XCTAssertEqual(try BodySeal.open(sealed, item: after, keys: VaultKeys(deviceKey: try .random(count: 32), vaultKey: newKey)),
                       try Self.secret(Array("shared".utf8)), "sealed under the adopted key")
        XCTAssertEqual(BodySeal.epoch(of: sealed), 1, "in epoch 1, padded")

        let reopened = try SecretStore.open(at: databasePath)
        XCTAssertEqual(reopened.vaultID, otherVault)
        try reopened.unlock(try Self.passphrase())
        XCTAssertEqual(try reopened.read(syncable), try Self.secret(Array("shared".utf8)))
        XCTAssertEqual(try reopened.read(local), try Self.secret(Array("device".utf8)))
        XCTAssertEqual(try reopened.vaultKeyForPublishing(), newKey)
    }

    func testAdoptionNeedsTheStoreUnlocked() throws {
        try makeStore().put(try Self.secret([1, 2, 3]), for: Self.reference(), availability: .syncable)
        let locked = try SecretStore.open(at: databasePath)
        XCTAssertThrowsError(try locked.adoptVault(id: otherVault, vaultKey: try .random(count: SealedBox.keyCount))) {
            XCTAssertEqual(($0 as? SecretError)?.code, .locked)
        }
        XCTAssertEqual(locked.vaultID, Self.storeID)
    }

    func testADamagedAdoptedKeyRefusesToUnlockInsteadOfUsingTheOldKey() throws {
        try makeStore().adoptVault(id: otherVault, vaultKey: try .random(count: SealedBox.keyCount))
        let raw = try rawConnection()
        try raw.run("UPDATE secret_meta SET value = ? WHERE key = 'adopted_vault_key'", [Base64.encode(Array(repeating: 0x41, count: 80))])
        let reopened = try SecretStore.open(at: databasePath)
        XCTAssertThrowsError(try reopened.unlock(try Self.passphrase())) { XCTAssertEqual(($0 as? SecretError)?.code, .authenticationFailed) }
        XCTAssertFalse(reopened.isUnlocked)
    }

    func testKeptLosingVersionsMoveToTheAdoptedKeyAndStillRestore() throws {
        let store = try makeStore()
        let reference = Self.reference()
        let lost = try store.put(try Self.secret(Array("lost edit".utf8)), for: reference, availability: .syncable)
        let sealed = try XCTUnwrap(try store.read("sealed") { db in try db.queryFirst("SELECT sealed_body FROM secret_items") { $0.blob(0) } } ?? nil)
        let winner = Envelope(recordName: reference, kind: "secret", formatVersion: 1, version: RecordVersion(clock: lost.version.clock + 1, device: "elsewhere"),
                              deleted: true, incarnation: 1, payload: [])
        try store.write("keep") { db in try SecretStore.keepConflict(db, lost: lost, sealed: sealed, context: nil, winner: winner) }
        try store.adoptVault(id: otherVault, vaultKey: try .random(count: SealedBox.keyCount))
        let id = try XCTUnwrap(try store.conflicts().first?.id)
        try store.restoreConflict(id)
        XCTAssertEqual(try store.read(reference), try Self.secret(Array("lost edit".utf8)))
    }
}
