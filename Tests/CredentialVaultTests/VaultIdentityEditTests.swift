import Foundation
import XCTest
@testable import CredentialVault

/// The identity edits that need no secret, and what an agent asks of an identity before it
/// signs: whether each use asks first, found by the public key blob it is asked to use.
final class VaultIdentityEditTests: VaultTestCase {
    private func addKey(_ vault: Vault, _ label: String, confirm: Bool = false) throws -> Identity {
        let path = directory + "/" + label
        try KeyFixtures.generate(path, type: "ed25519")
        return try vault.addIdentity(label: label, privateKeyPath: path, confirm: confirm)
    }

    /// The key blob of an OpenSSH public key line.
    private func blob(_ identity: Identity) throws -> [UInt8] {
        try XCTUnwrap(Base64.decode(String(identity.publicKey.split(separator: " ")[1])))
    }

    func testAnEditChangesTheLabelUserAndConfirmationWhileLocked() throws {
        let identity = try addKey(try makeVault(), "laptop", confirm: true)
        XCTAssertTrue(identity.confirm)
        let locked = try reopen()
        var edited = try locked.identity("laptop")
        XCTAssertTrue(edited.confirm)
        edited.label = "work"
        edited.username = "me"
        edited.confirm = false
        let saved = try locked.updateIdentity(edited)
        XCTAssertNotEqual(saved.version, identity.version)
        let read = try XCTUnwrap(try reopen().identity(id: identity.id))
        XCTAssertEqual([read.label, read.username ?? "-", "\(read.confirm)"], ["work", "me", "false"])
        XCTAssertEqual(read.publicKey, identity.publicKey)
        assertVaultError(.conflict) { try locked.updateIdentity(edited) }  // of the version before
    }

    func testTheKeyOfAnIdentityIsNotEditedAndARefusedEditChangesNothing() throws {
        let vault = try makeVault()
        let identity = try addKey(vault, "laptop"), other = try addKey(vault, "other")
        let changes: [(inout Identity) -> Void] = [
            { $0.publicKey = other.publicKey }, { $0.keyType = .rsa }, { $0.privateKeyRef = other.privateKeyRef },
            { $0.passphraseRef = .identityPassphrase($0.id) },
        ]
        for change in changes {
            var edited = try vault.identity("laptop")
            edited.confirm = true
            change(&edited)
            let error = assertVaultError(.invalidInput) { try vault.updateIdentity(edited) }
            XCTAssertEqual(error?.message, "The key of identity 'laptop' cannot be edited.")
        }
        let kept = try XCTUnwrap(try vault.identity(id: identity.id))
        XCTAssertEqual(kept.version, identity.version)
        XCTAssertFalse(kept.confirm)
    }

    func testAnAgentFindsAnIdentityAndItsConfirmationByItsPublicKeyBlob() throws {
        let vault = try makeVault()
        let asks = try addKey(vault, "asks", confirm: true), quiet = try addKey(vault, "quiet")
        let locked = try reopen()
        XCTAssertEqual(try locked.identity(publicKeyBlob: try blob(asks)).map { "\($0.label) \($0.confirm)" }, "asks true")
        XCTAssertEqual(try locked.identity(publicKeyBlob: try blob(quiet)).map { "\($0.label) \($0.confirm)" }, "quiet false")
        XCTAssertNil(try locked.identity(publicKeyBlob: Array(try blob(quiet).dropLast())))
        XCTAssertNil(try locked.identity(publicKeyBlob: []))
    }
}
