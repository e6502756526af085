import Foundation
import SQLite
import Sodium
import XCTest
@testable import SecretTrack

final class SecretStoreKeyTests: SecretTestCase {
    let reference = SecretTestCase.reference()

    /// Creates a store with `provider`, stores one secret, and returns the store reopened (locked).
    func lockedStore(_ provider: KeyProvider? = nil) throws -> SecretStore {
        var created: SecretStore? = try makeStore(provider)
        try created!.put(try SecretBytes(utf8: "s3cret"), for: reference)
        created = nil
        return try SecretStore.open(at: databasePath)
    }

    func assertStillLocked(_ store: SecretStore, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(store.isUnlocked, file: file, line: line)
        assertSecretError(.locked, try store.read(reference), file: file, line: line)
    }

    func testRightPassphraseUnlocks() throws {
        let store = try lockedStore()
        try store.unlock(try Self.passphrase())
        XCTAssertTrue(try store.read(reference) == (try SecretBytes(utf8: "s3cret")))
    }

    func testWrongPassphraseIsRejected() throws {
        let store = try lockedStore()
        let error = assertSecretError(.wrongKey, try store.unlock(try Self.passphrase("correct horse battery stapler")))
        XCTAssertEqual(error?.message, "The passphrase does not unlock this vault.")
        XCTAssertEqual(error?.hint, "Check the passphrase and try again.")
        assertStillLocked(store)
        assertSecretError(.invalid, try store.unlock(.passphrase(try SecretBytes(zeroedCount: 0))))
        assertStillLocked(store)
    }

    func testKeyFileStore() throws {
        let keyPath = directory + "/vault.key"
        try KeyFile.create(at: keyPath)
        let store = try lockedStore(.keyFile(try KeyFile.read(at: keyPath)))
        XCTAssertEqual(try store.providers(), [.keyFile])
        XCTAssertNil(try store.passphraseParameters())
        try store.unlock(.keyFile(try KeyFile.read(at: keyPath)))
        XCTAssertTrue(try store.read(reference) == (try SecretBytes(utf8: "s3cret")))
    }

    func testWrongKeyFileIsRejected() throws {
        let keyPath = directory + "/vault.key"
        let otherPath = directory + "/other.key"
        try KeyFile.create(at: keyPath)
        try KeyFile.create(at: otherPath)
        let store = try lockedStore(.keyFile(try KeyFile.read(at: keyPath)))
        let error = assertSecretError(.wrongKey, try store.unlock(.keyFile(try KeyFile.read(at: otherPath))))
        XCTAssertEqual(error?.message, "The key file does not unlock this vault.")
        XCTAssertEqual(error?.hint, "Use the key file the vault was created with.")
        assertStillLocked(store)
    }

    func testKeyFileOnAPassphraseStoreNamesThePassphrase() throws {
        let keyPath = directory + "/vault.key"
        try KeyFile.create(at: keyPath)
        let store = try lockedStore()
        let error = assertSecretError(.wrongKey, try store.unlock(.keyFile(try KeyFile.read(at: keyPath))))
        XCTAssertEqual(error?.message, "This vault does not unlock with a key file.")
        XCTAssertEqual(error?.hint, "It unlocks with: passphrase.")
        assertStillLocked(store)
    }

    func testPassphraseOnAKeyFileStoreNamesTheKeyFile() throws {
        let keyPath = directory + "/vault.key"
        try KeyFile.create(at: keyPath)
        let store = try lockedStore(.keyFile(try KeyFile.read(at: keyPath)))
        let error = assertSecretError(.wrongKey, try store.unlock(try Self.passphrase()))
        XCTAssertEqual(error?.message, "This vault does not unlock with a passphrase.")
        XCTAssertEqual(error?.hint, "It unlocks with: keyfile.")
    }

    func testTamperedKeySlotNeverUnlocks() throws {
        let tamperings = [
            "UPDATE key_slots SET wrapped_keys = substr(wrapped_keys, 1, length(wrapped_keys) - 1) || x'00'",
            "UPDATE key_slots SET wrapped_keys = substr(wrapped_keys, 1, 40)",
            "UPDATE key_slots SET wrapped_keys = x''",
            "UPDATE key_slots SET kdf_ops = kdf_ops + 1",
            "UPDATE key_slots SET kdf_ops = 0",
            "UPDATE key_slots SET kdf_ops = -1",
            "UPDATE key_slots SET kdf_mem = kdf_mem * 2",
            "UPDATE key_slots SET kdf_mem = 1",
            "UPDATE key_slots SET kdf_salt = zeroblob(16)",
            "UPDATE key_slots SET kdf_salt = x'00'",
            "UPDATE key_slots SET kdf_salt = NULL",
            "UPDATE key_slots SET kdf_algorithm = 'argon2i13'",
            "UPDATE key_slots SET kdf_algorithm = NULL",
            "UPDATE secret_meta SET value = '00000000-0000-4000-8000-000000000000' WHERE key = 'store_id'",
        ]
        for sql in tamperings {
            var created: SecretStore? = try makeStore()
            try created!.put(try SecretBytes(utf8: "s3cret"), for: reference)
            created = nil
            try rawConnection().execute(sql)
            let store = try SecretStore.open(at: databasePath)
            XCTAssertThrowsError(try store.unlock(try Self.passphrase()), sql) { error in
                let code = (error as? SecretError)?.code
                XCTAssertTrue(code == .wrongKey || code == .authenticationFailed, "\(sql): \(error)")
            }
            assertStillLocked(store)
            try FileManager.default.removeItem(atPath: databasePath)
            try? FileManager.default.removeItem(atPath: databasePath + "-wal")
            try? FileManager.default.removeItem(atPath: databasePath + "-shm")
        }
    }

    func testASlotCannotBeMovedToAnotherStore() throws {
        let otherPath = directory + "/other.sqlite"
        _ = try makeStore()
        _ = try SecretStore.create(at: otherPath, storeID: "99999999-9999-4999-8999-999999999999", deviceID: Self.deviceID,
                                   provider: try Self.passphrase(), kdf: .insecureForTesting())
        // Same passphrase, but the other store's slot is bound to its own store id.
        let raw = try rawConnection()
        try raw.execute("ATTACH DATABASE '\(otherPath)' AS other")
        try raw.execute("DELETE FROM key_slots; INSERT INTO key_slots SELECT * FROM other.key_slots")
        try raw.execute("DETACH DATABASE other")
        let store = try SecretStore.open(at: databasePath)
        assertSecretError(.wrongKey, try store.unlock(try Self.passphrase()))
        XCTAssertFalse(store.isUnlocked)
    }

    func testAnAddedKeyringSlotUnlocksBesideThePassphrase() throws {
        let reference = Self.reference()
        try makeStore().put(try Self.secret(Array("body".utf8)), for: reference)
        let keyringSecret = try SecretBytes.random(count: 32)
        let unlocked = try SecretStore.open(at: databasePath)
        try unlocked.unlock(try Self.passphrase())
        try unlocked.addKeySlot(.keyring(keyringSecret), kdf: .insecureForTesting())
        XCTAssertEqual(try unlocked.providers(), [.keyring, .passphrase])

        let byKeyring = try SecretStore.open(at: databasePath)
        try byKeyring.unlock(.keyring(keyringSecret))
        XCTAssertEqual(try byKeyring.read(reference), try Self.secret(Array("body".utf8)))
        XCTAssertThrowsError(try SecretStore.open(at: databasePath).unlock(.keyring(try SecretBytes.random(count: 32)))) {
            XCTAssertEqual(($0 as? SecretError)?.code, .wrongKey)
        }
        let byPassphrase = try SecretStore.open(at: databasePath)
        try byPassphrase.unlock(try Self.passphrase())
        XCTAssertEqual(try byPassphrase.read(reference), try Self.secret(Array("body".utf8)))
    }
}
