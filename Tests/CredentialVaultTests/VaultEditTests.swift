import Foundation
import XCTest
@testable import CredentialVault

/// Edits across both tracks: order, markers, and what is left behind.
final class VaultEditTests: VaultTestCase {
    func testReplacingAPasswordKeepsTheReferenceAndServesTheNewBody() throws {
        let vault = try makeVault()
        let host = try vault.addHost(Host(label: "web", hostname: "web.example"), password: try secret("old"))
        let updated = try vault.updateHost(host, password: .set(try secret("new")))
        XCTAssertEqual(updated.passwordRef, host.passwordRef)
        guard case .password(let password) = try vault.resolve("web").auth else { return XCTFail("expected a password") }
        XCTAssertEqual(bytes(of: password), Array("new".utf8))
    }

    func testClearingAPasswordDropsTheReferenceThenTheBodyLeavingAMarker() throws {
        let vault = try makeVault()
        let host = try vault.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        let cleared = try vault.updateHost(host, password: .clear)
        XCTAssertNil(cleared.passwordRef)
        guard case .deleted(let marker) = try vault.secrets.state(of: host.passwordRef!.key) else { return XCTFail("expected a deletion marker") }
        XCTAssertEqual(marker.incarnation, 1)
        assertVaultError(.noCredential) { try vault.resolve("web") }
        // Setting it again starts a new incarnation.
        try vault.updateHost(cleared, password: .set(try secret("again")))
        guard case .present(let item) = try vault.secrets.state(of: host.passwordRef!.key) else { return XCTFail("expected a body") }
        XCTAssertEqual(item.incarnation, 2)
    }

    func testRemovingAHostRemovesItsForwardsAndBodyWithAMarker() throws {
        let vault = try makeVault()
        let host = try vault.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        try vault.saveForward(PortForwardRule(hostID: host.id, kind: .local, bindPort: 8080, destinationHost: "localhost", destinationPort: 80))
        try vault.removeHost("web")
        XCTAssertEqual(try vault.hosts(), [])
        XCTAssertEqual(try vault.forwards(), [])
        guard case .deleted = try vault.secrets.state(of: host.passwordRef!.key) else { return XCTFail("expected a deletion marker") }
        XCTAssertEqual(try vault.status().deletionMarkers, 1)
    }

    func testRemovingWorksWhileLocked() throws {
        let vault = try makeVault()
        try vault.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        try reopen().removeHost("web")
        XCTAssertEqual(try reopen().hosts(), [])
    }

    func testAFailedAddWritesNoSecret() throws {
        let vault = try makeVault()
        try vault.addHost(Host(label: "web", hostname: "web.example"))
        assertVaultError(.alreadyExists) { try vault.addHost(Host(label: "web", hostname: "other.example"), password: try secret("pw")) }
        assertVaultError(.invalidInput) { try vault.addHost(Host(label: "bad", hostname: "-oProxyCommand=x"), password: try secret("pw")) }
        XCTAssertEqual(try vault.secrets.items(), [])
    }

    func testWritingASecretNeedsTheVaultUnlocked() throws {
        _ = try makeVault()
        assertVaultError(.locked) { try reopen().addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw")) }
        XCTAssertEqual(try reopen().hosts(), [], "nothing is half-added")
    }

    func testIdentityInUseCannotBeRemovedAndRemovalDeletesBothBodies() throws {
        let vault = try makeVault()
        let keyPath = directory + "/id"
        try KeyFixtures.generate(keyPath, type: "ed25519", passphrase: "pp")
        let identity = try vault.addIdentity(label: "k", privateKeyPath: keyPath, passphrase: try secret("pp"))
        try vault.addHost(Host(label: "db", hostname: "db.example", authMethod: .publicKey, identityID: identity.id))
        assertVaultError(.inUse) { try vault.removeIdentity("k") }
        try vault.removeHost("db")
        try vault.removeIdentity("k")
        guard case .deleted = try vault.secrets.state(of: identity.privateKeyRef.key),
              case .deleted = try vault.secrets.state(of: identity.passphraseRef!.key) else { return XCTFail("expected markers for both bodies") }
    }

    func testAPassphraseForAnUnencryptedKeyIsRefused() throws {
        let vault = try makeVault()
        let keyPath = directory + "/id"
        try KeyFixtures.generate(keyPath, type: "ed25519")
        assertVaultError(.invalidInput) { try vault.addIdentity(label: "k", privateKeyPath: keyPath, passphrase: try secret("pp")) }
        XCTAssertEqual(try vault.secrets.items(), [])
    }

    func testCredentialAddressesResolveToReferences() throws {
        let vault = try makeVault()
        let host = try vault.addHost(Host(label: "prod/web 1", hostname: "web.example"), password: try secret("pw"))
        XCTAssertEqual(try vault.reference(for: "cred://host/prod/web 1/password"), host.passwordRef)
        XCTAssertEqual(try vault.reference(for: host.passwordRef!.key), host.passwordRef)
        assertVaultError(.invalidInput) { try vault.reference(for: "cred://host/prod/web 1/privkey") }
        assertVaultError(.invalidInput) { try vault.reference(for: "cred://host") }
        assertVaultError(.notFound) { try vault.reference(for: "cred://identity/none/privkey") }
        assertVaultError(.invalidInput) { try vault.reference(for: "HOST.\(CanonicalUUID.text(host.id)).password") }
    }
}
