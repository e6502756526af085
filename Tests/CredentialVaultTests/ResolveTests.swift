import Foundation
import XCTest
@testable import CredentialVault

/// Resolving hosts: the successful shapes and every typed error.
final class ResolveTests: VaultTestCase {
    func testPasswordHostResolvesToItsPassword() throws {
        let vault = try makeVault()
        try vault.addHost(Host(label: "web", hostname: "web.example", port: 2222, username: "deploy"), password: try SecretBytes(copying: [0, 0xff, 0x0a, 0x41]))
        let connection = try reopenUnlocked().resolve("web")
        XCTAssertEqual(connection.endpoint, Endpoint(label: "web", hostname: "web.example", port: 2222, username: "deploy"))
        guard case .password(let password) = connection.auth else { return XCTFail("expected a password, got \(connection.auth.method)") }
        XCTAssertEqual(bytes(of: password), [0, 0xff, 0x0a, 0x41])
    }

    func testKeyHostResolvesToKeyAndPassphraseAndJumpChainInConnectionOrder() throws {
        let vault = try makeVault()
        let keyPath = directory + "/id_rsa"
        try KeyFixtures.generate(keyPath, type: "ed25519", passphrase: "key-pass")
        let identity = try vault.addIdentity(label: "laptop", privateKeyPath: keyPath, username: "admin", passphrase: try secret("key-pass"))
        let outer = try vault.addHost(Host(label: "outer", hostname: "outer.example"))
        let inner = try vault.addHost(Host(label: "inner", hostname: "inner.example", username: "jumper", jumpHostID: outer.id))
        try vault.addHost(Host(label: "db", hostname: "db.internal", authMethod: .publicKey, identityID: identity.id, jumpHostID: inner.id))
        let connection = try reopenUnlocked().resolve("db")
        XCTAssertEqual(connection.jumpChain.map(\.label), ["outer", "inner"])
        XCTAssertEqual(connection.jumpChain[1].username, "jumper")
        XCTAssertEqual(connection.endpoint.username, "admin", "the identity's user applies when the host names none")
        guard case .privateKey(let key, let passphrase, let resolvedIdentity) = connection.auth else { return XCTFail("expected a private key") }
        XCTAssertEqual(bytes(of: key), try KeyFixtures.bytes(keyPath))
        XCTAssertEqual(passphrase.map(bytes(of:)), Array("key-pass".utf8))
        XCTAssertEqual(resolvedIdentity.id, identity.id)
    }

    func testAgentAndKeyboardInteractiveHostsNeedNoKeyUnlessAPasswordIsStored() throws {
        let vault = try makeVault()
        try vault.addHost(Host(label: "agent", hostname: "a.example", authMethod: .agent))
        try vault.addHost(Host(label: "ask", hostname: "k.example", authMethod: .keyboardInteractive))
        let locked = try reopen()
        guard case .agent(nil) = try locked.resolve("agent").auth else { return XCTFail("expected agent") }
        guard case .keyboardInteractive(nil) = try locked.resolve("ask").auth else { return XCTFail("expected keyboard-interactive") }
    }

    func testUnknownHostIsNotFound() throws {
        let error = assertVaultError(.notFound) { try makeVault().resolve("nope") }
        XCTAssertEqual(error?.message, "No host 'nope'.")
    }

    func testPasswordMethodWithoutPasswordIsNoCredential() throws {
        let vault = try makeVault()
        try vault.addHost(Host(label: "web", hostname: "web.example", authMethod: .password))
        let error = assertVaultError(.noCredential) { try vault.resolve("web") }
        XCTAssertEqual(error?.message, "Host 'web' uses password authentication but has no password stored.")
    }

    func testPublicKeyMethodWithoutIdentityIsNoCredential() throws {
        let vault = try makeVault()
        try vault.addHost(Host(label: "web", hostname: "web.example", authMethod: .publicKey))
        assertVaultError(.noCredential) { try vault.resolve("web") }
    }

    func testReferenceWithoutBodyIsNotYetSyncedEvenWhileLocked() throws {
        let vault = try makeVault()
        let host = try vault.addHost(Host(label: "web-1", hostname: "web.example"), password: try secret("pw"))
        try rawSQL("secrets.sqlite", "DELETE FROM secret_items WHERE reference = ?", [host.passwordRef!.key])
        let error = assertVaultError(.notYetSynced) { try reopen().resolve("web-1") }
        XCTAssertEqual(error?.message, "Credentials for 'web-1' have not synced to this device yet (\(host.passwordRef!) is missing).")
        XCTAssertEqual(error?.hint?.contains("sync"), true)
    }

    func testIdentityRecordNotYetArrivedIsNotYetSynced() throws {
        let vault = try makeVault()
        let keyPath = directory + "/id"
        try KeyFixtures.generate(keyPath, type: "ed25519")
        let identity = try vault.addIdentity(label: "k", privateKeyPath: keyPath)
        try vault.addHost(Host(label: "db", hostname: "db.example", authMethod: .publicKey, identityID: identity.id))
        try rawSQL("config.sqlite", "DELETE FROM identities")
        assertVaultError(.notYetSynced) { try vault.resolve("db") }
    }

    func testDeletedBodyIsDeletedNotNotYetSynced() throws {
        let vault = try makeVault()
        let host = try vault.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        // A deletion made elsewhere arrives before the config change that drops the reference.
        try vault.secrets.delete(host.passwordRef!.key)
        let error = assertVaultError(.deleted) { try vault.resolve("web") }
        XCTAssertEqual(error?.message, "The credential \(host.passwordRef!) of 'web' was deleted.")
    }

    func testQuarantinedBodyIsQuarantined() throws {
        let vault = try makeVault()
        let host = try vault.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        try rawSQL("secrets.sqlite", "DELETE FROM secret_items")
        try rawSQL("secrets.sqlite", "INSERT INTO replication_quarantine (zone, record_name, reason, bytes, received_clock) VALUES ('secrets', ?, 'unsupported format version 9', x'00', 1)",
                   [host.passwordRef!.key])
        assertVaultError(.quarantined) { try vault.resolve("web") }
    }

    func testPresentBodyWithoutKeyIsLocked() throws {
        let vault = try makeVault()
        try vault.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        let error = assertVaultError(.locked) { try reopen().resolve("web") }
        XCTAssertEqual(error?.message, "The vault is locked; unlock it to use the credentials of 'web'.")
    }

    func testTamperedCiphertextFailsAuthentication() throws {
        let vault = try makeVault()
        let host = try vault.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        var sealed = try XCTUnwrap(try rawBlob("secrets.sqlite", "SELECT sealed_body FROM secret_items WHERE reference = ?", [host.passwordRef!.key]))
        sealed[sealed.count - 20] ^= 0x01
        try rawSQL("secrets.sqlite", "UPDATE secret_items SET sealed_body = ? WHERE reference = ?", [sealed, host.passwordRef!.key])
        let error = assertVaultError(.corrupt) { try reopenUnlocked().resolve("web") }
        XCTAssertEqual(error?.message.contains("failed authentication"), true)
    }

    func testCiphertextSwappedBetweenTwoReferencesOpensUnderNeither() throws {
        let vault = try makeVault()
        let a = try vault.addHost(Host(label: "a", hostname: "a.example"), password: try secret("password-a"))
        let b = try vault.addHost(Host(label: "b", hostname: "b.example"), password: try secret("password-b"))
        let sealedA = try XCTUnwrap(try rawBlob("secrets.sqlite", "SELECT sealed_body FROM secret_items WHERE reference = ?", [a.passwordRef!.key]))
        let sealedB = try XCTUnwrap(try rawBlob("secrets.sqlite", "SELECT sealed_body FROM secret_items WHERE reference = ?", [b.passwordRef!.key]))
        try rawSQL("secrets.sqlite", "UPDATE secret_items SET sealed_body = ? WHERE reference = ?", [sealedB, a.passwordRef!.key])
        try rawSQL("secrets.sqlite", "UPDATE secret_items SET sealed_body = ? WHERE reference = ?", [sealedA, b.passwordRef!.key])
        let reopened = try reopenUnlocked()
        assertVaultError(.corrupt) { try reopened.resolve("a") }
        assertVaultError(.corrupt) { try reopened.resolve("b") }
    }

    func testReadSecretRefusesReferencesConfigDoesNotUse() throws {
        let vault = try makeVault()
        let host = try vault.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        XCTAssertEqual(bytes(of: try vault.readSecret(host.passwordRef!)), Array("pw".utf8))
        try vault.updateHost(try vault.host("web"), password: .clear)
        try vault.secrets.put(try secret("orphan"), for: host.passwordRef!.key)
        // Said of the host: it has no password (66, as not found).
        assertVaultError(.noCredential) { try vault.readSecret(host.passwordRef!) }
    }

    private func reopenUnlocked() throws -> Vault {
        let vault = try reopen()
        try vault.unlock(.keyFile(path: keyFilePath))
        return vault
    }
}
