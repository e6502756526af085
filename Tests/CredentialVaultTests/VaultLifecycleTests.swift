import Foundation
import XCTest
@testable import CredentialVault

/// Creating, opening and unlocking vaults; file modes; wrong keys.
final class VaultLifecycleTests: VaultTestCase {
    func testCreateMakesA0700DirectoryWith0600Files() throws {
        let vault = try makeVault()
        try vault.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        XCTAssertEqual(mode(vaultPath), 0o700)
        XCTAssertEqual(mode(keyFilePath), 0o600)
        let files = try FileManager.default.contentsOfDirectory(atPath: vaultPath)
        XCTAssertTrue(files.contains("config.sqlite-wal"), "WAL files exist while open: \(files)")
        for file in files { XCTAssertEqual(mode(vaultPath + "/" + file), 0o600, file) }
    }

    func testCreateNarrowsAWiderExistingDirectory() throws {
        XCTAssertEqual(mkdir(vaultPath, 0o755), 0)
        chmod(vaultPath, 0o755)
        _ = try makeVault()
        XCTAssertEqual(mode(vaultPath), 0o700)
    }

    func testCreateRefusesADirectoryThatHoldsAVault() throws {
        _ = try makeVault()
        let error = assertVaultError(.alreadyExists) { try Vault.create(at: vaultPath, key: .keyFile(path: keyFilePath), kdf: .insecureForTesting()) }
        XCTAssertEqual(error?.message.contains("already holds a vault"), true)
    }

    func testOpeningAnEmptyDirectoryIsNoVault() throws {
        let error = assertVaultError(.noVault) { try Vault.open(at: directory) }
        XCTAssertEqual(error?.hint, "Create one with: credctl init --vault \(directory)")
    }

    func testConfigListsAndShowsWithoutUnlocking() throws {
        let vault = try makeVault()
        try vault.addHost(Host(label: "web", hostname: "web.example", username: "deploy"), password: try secret("pw"))
        let locked = try reopen()
        XCTAssertFalse(locked.isUnlocked)
        XCTAssertEqual(try locked.hosts().map(\.label), ["web"])
        XCTAssertEqual(try locked.host("web").username, "deploy")
        XCTAssertEqual(try locked.status().hosts, 1)
    }

    func testPassphraseVaultUnlocksOnlyWithItsPassphrase() throws {
        _ = try Vault.create(at: vaultPath, key: .passphrase(try secret("correct horse")), kdf: .insecureForTesting())
        let vault = try reopen()
        let error = assertVaultError(.wrongKey) { try vault.unlock(.passphrase(try secret("correct hors"))) }
        XCTAssertEqual(error?.message, "The passphrase does not unlock this vault.")
        XCTAssertFalse(vault.isUnlocked)
        try vault.unlock(.passphrase(try secret("correct horse")))
        XCTAssertTrue(vault.isUnlocked)
        XCTAssertEqual(try vault.status().unlockMethods, ["passphrase"])
    }

    func testEmptyPassphraseIsRefused() throws {
        assertVaultError(.invalidInput) { try Vault.create(at: vaultPath, key: .passphrase(try SecretBytes(zeroedCount: 0)), kdf: .insecureForTesting()) }
    }

    func testKeyFileVaultRefusesAnotherKeyFileAndAPassphrase() throws {
        _ = try makeVault()
        let other = directory + "/other.key"
        _ = try Vault.create(at: directory + "/second", key: .keyFile(path: other), kdf: .insecureForTesting())
        let vault = try reopen()
        let wrong = assertVaultError(.wrongKey) { try vault.unlock(.keyFile(path: other)) }
        XCTAssertEqual(wrong?.message, "\(other): The key file does not unlock this vault.")
        let noSlot = assertVaultError(.wrongKey) { try vault.unlock(.passphrase(try secret("anything"))) }
        XCTAssertEqual(noSlot?.hint, "It unlocks with: keyfile.")
        try vault.unlock(.keyFile(path: keyFilePath))
        XCTAssertTrue(vault.isUnlocked)
    }

    func testAKeyFileReadableByOthersIsRefused() throws {
        _ = try makeVault()
        chmod(keyFilePath, 0o644)
        let error = assertVaultError(.invalidInput) { try reopen().unlock(.keyFile(path: keyFilePath)) }
        XCTAssertEqual(error?.hint, "Run: chmod 600 \(keyFilePath)")
    }

    func testAMissingKeyFileIsReported() throws {
        _ = try makeVault()
        let error = assertVaultError(.locked) { try reopen().unlock(.keyFile(path: directory + "/nope")) }
        XCTAssertEqual(error?.message, "The key file \(directory)/nope does not exist.")
    }

    func testCreateUsesAnExistingKeyFileAndNeverOverwritesIt() throws {
        // A key of the user's own making: 32 bytes as Base64, with no newline.
        let contents = Array(Base64.encode(Array(0..<32)).utf8)
        _ = FileManager.default.createFile(atPath: keyFilePath, contents: Data(contents), attributes: [.posixPermissions: 0o600])
        _ = try makeVault()
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: keyFilePath))), contents)
        try reopen().unlock(.keyFile(path: keyFilePath))
    }

    func testCreateRefusesAnExistingFileThatHoldsNoKeyAndMakesNothing() throws {
        _ = FileManager.default.createFile(atPath: keyFilePath, contents: Data("my-own-key-material-0123456789\n".utf8), attributes: [.posixPermissions: 0o600])
        assertVaultError(.invalidInput) { _ = try Vault.create(at: self.vaultPath, key: .keyFile(path: self.keyFilePath), kdf: .insecureForTesting()) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: vaultPath + "/config.sqlite"))
    }
}
