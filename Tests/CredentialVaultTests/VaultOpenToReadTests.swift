import Foundation
@testable import ConfigTrack
import SQLite
import XCTest
@testable import CredentialVault
import struct Identifiers.UUID

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
        // The vault that wrote is gone before the read: with its connections open, this
        // process's indexes would already be built, and no open would change a file.
        let reference = try {
            let made = try makeVault()
            try made.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
            return try XCTUnwrap(made.host("web").passwordRef)
        }()
        let before = try contentTimes()
        usleep(20_000)
        do {
            let vault = try Vault.openToRead(at: vaultPath)
            XCTAssertTrue(vault.secrets.isReadOnly)
            try vault.unlock(.keyFile(path: keyFilePath))
            XCTAssertEqual(bytes(of: try vault.readSecret(reference)), Array("pw".utf8))
            XCTAssertEqual(try vault.hosts().map(\.label), ["web"])
            XCTAssertEqual(try contentTimes(), before, "reading changed a file of the vault")
        }
        // The same through the usual open does change them: the check above could fail.
        _ = try Vault.open(at: vaultPath).hosts()
        XCTAssertNotEqual(try contentTimes(), before)
    }

    /// The snapshots end before an unlock that may wait on a person; reads then see the
    /// database as it is.
    func testAfterItsSnapshotsEndAReadOnlyVaultSeesLaterWrites() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("sqlite3 is not installed") }
        try { _ = try makeVault() }()
        let vault = try Vault.openToRead(at: vaultPath)
        XCTAssertEqual(try vault.hosts().count, 0)
        // Another process adds a row; the vault's snapshot hides it until it ends.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [vaultPath + "/config.sqlite", "INSERT INTO config_meta (key, value) VALUES ('probe', 'x');"]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let probe = "SELECT value FROM config_meta WHERE key = 'probe'"
        XCTAssertNil(try vault.config.read("probe") { db in try db.queryFirst(probe) { $0.text(0) } } ?? nil)
        vault.endReadSnapshots()
        XCTAssertEqual(try vault.config.read("probe") { db in try db.queryFirst(probe) { $0.text(0) } } ?? nil, "x")
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
        let last = "replication: own unsent removals replaced from elsewhere"
        XCTAssertEqual(try Connection.appliedNames(vaultPath + "/config.sqlite").last, last)
        try rawSQL("config.sqlite", "DROP TABLE replication_replaced_removals")
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

    /// A vault a newer build wrote is refused read-only and then by the usual open, with its
    /// usual error.
    func testAVaultFromANewerBuildIsTheUsualError() throws {
        _ = try makeVault()
        try rawSQL("secrets.sqlite", "INSERT INTO schema_migrations (position, name) VALUES (999, 'from a newer build')")
        XCTAssertThrowsError(try Vault.openToRead(at: vaultPath)) { error in
            XCTAssertTrue("\(error)".contains("newer"), "\(error)")
        }
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
