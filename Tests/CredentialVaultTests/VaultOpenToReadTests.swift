import Foundation
import SQLite
import XCTest
@testable import CredentialVault

/// `Vault.openToRead`: read-only when the vault has nothing to do on opening or unlocking, so a
/// read changes no file of it; read-write whenever a remote's every-launch upkeep may write.
final class VaultOpenToReadTests: VaultTestCase {
    /// Every file of the vault with when its contents last changed.
    private func contentTimes() throws -> [String: Int] {
        var times: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: vaultPath) {
            var info = stat()
            guard stat(vaultPath + "/" + name, &info) == 0 else { continue }
            times[name] = info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
        }
        return times
    }

    func testALocalVaultIsReadWithoutChangingAnyOfItsFiles() throws {
        let made = try makeVault()
        try made.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        let reference = try XCTUnwrap(made.host("web").passwordRef)
        let before = try contentTimes()
        usleep(20_000)
        let vault = try Vault.openToRead(at: vaultPath)
        XCTAssertTrue(vault.secrets.isReadOnly)
        try vault.unlock(.keyFile(path: keyFilePath))
        XCTAssertEqual(bytes(of: try vault.readSecret(reference)), Array("pw".utf8))
        XCTAssertEqual(try vault.hosts().map(\.label), ["web"])
        XCTAssertEqual(try contentTimes(), before, "reading changed a file of the vault")
    }

    /// With a remote bound, every unlock makes device-only secrets syncable: it may write.
    func testAVaultWithARemoteOpensToWriteAndItsUnlockMigrates() throws {
        let made = try makeVault()
        try made.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        try made.setRemote(directory: directory + "/remote")
        // A body kept on this device only, as one stored before the remote was bound is.
        try made.secrets.put(try secret("local"), for: "host.\(UUID().uuidString.lowercased()).password", availability: .deviceOnly)
        XCTAssertEqual(try made.secrets.awaitingMigration().count, 1)
        let vault = try Vault.openToRead(at: vaultPath)
        XCTAssertFalse(vault.secrets.isReadOnly)
        try vault.unlock(.keyFile(path: keyFilePath))
        XCTAssertEqual(try vault.secrets.awaitingMigration(), [], "the every-launch migration did not run")
    }

    /// A vault an older build left a migration behind cannot be read as it is: it is opened to
    /// write, and migrated.
    func testAVaultThatNeedsAMigrationIsOpenedAsUsualAndMigrated() throws {
        _ = try makeVault()
        let last = "replication: the journal's newest edit by index"
        XCTAssertEqual(try Connection.appliedNames(vaultPath + "/config.sqlite").last, last)
        try rawSQL("config.sqlite", "DROP INDEX replication_journal_clock")
        try rawSQL("config.sqlite", "DELETE FROM schema_migrations WHERE name = ?", [last])
        let vault = try Vault.openToRead(at: vaultPath)
        XCTAssertFalse(vault.secrets.isReadOnly)
        XCTAssertEqual(try Connection.appliedNames(vaultPath + "/config.sqlite").last, last)
    }

    /// With its bodies in the desktop keyring, every unlock sweeps the keyring: the vault opens to
    /// write, and the read-only store opened to find that out is closed again (while it was
    /// open, nothing in this process could write the secrets database).
    func testAVaultWithKeyringBodiesOpensToWrite() throws {
        _ = try makeVault()
        try rawSQL("secrets.sqlite", "UPDATE secret_meta SET value = 'keyring' WHERE key = 'backend'")
        let vault = try Vault.openToRead(at: vaultPath)
        XCTAssertEqual(vault.secretBackend, .keyring)
        XCTAssertFalse(vault.secrets.isReadOnly)
        try rawSQL("secrets.sqlite", "INSERT INTO secret_meta (key, value) VALUES ('written', 'yes')")
    }

    func testNoVaultIsTheUsualError() {
        XCTAssertThrowsError(try Vault.openToRead(at: directory + "/none")) { error in
            XCTAssertEqual((error as? VaultError)?.code, .noVault)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/none"))
    }
}

private extension Connection {
    static func appliedNames(_ path: String) throws -> [String] { try Migrator.appliedMigrations(try Connection(path: path)) }
}
