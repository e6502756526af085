import ConfigTrack
import Foundation
import XCTest
import struct Identifiers.UUID

final class ConfigStoreIdentityTests: ConfigTestCase {
    func testSaveAndLookup() throws {
        let identity = try store.save(Identity(label: "laptop", username: "me", keyType: .ed25519, publicKey: Self.publicKey(.ed25519)))
        XCTAssertEqual(identity.privateKeyRef, .identityPrivateKey(identity.id))
        XCTAssertNil(identity.passphraseRef)
        XCTAssertEqual(try store.identity("laptop"), identity)
        XCTAssertEqual(try store.identity(identity.id.uuidString.uppercased()), identity)
        XCTAssertEqual(try store.identity(id: identity.id), identity)
        XCTAssertEqual(try store.identities(), [identity])
    }

    func testEveryKeyTypeAcceptsItsOwnLine() throws {
        for (index, type) in KeyType.allCases.enumerated() {
            XCTAssertNoThrow(try store.save(Identity(label: "key \(index)", keyType: type, publicKey: Self.publicKey(type))), type.rawValue)
        }
        XCTAssertEqual(try store.counts().identities, KeyType.allCases.count)
    }

    func testPublicKeyLineMustMatchTheKeyType() throws {
        let mismatch = Identity(label: "k", keyType: .rsa, publicKey: Self.publicKey(.ed25519))
        let error = assertConfigError(.invalid, try store.save(mismatch))
        XCTAssertEqual(error?.message, "Identity 'k' needs an OpenSSH public key line of type ssh-rsa.")
        for line in ["", "ssh-ed25519", "ssh-ed25519 ", "AAAAC3Nz ssh-ed25519", "ssh-ed25519 AAAA\nssh-rsa AAAA", "ssh-ed25519\u{7} AAAA"] {
            assertConfigError(.invalid, try store.save(Identity(label: "k", keyType: .ed25519, publicKey: line)), line.debugDescription)
        }
        XCTAssertEqual(try store.counts().identities, 0)
    }

    func testReferencesMustBeTheIdentitysOwn() throws {
        let id = UUID()
        let withPassphrase = Identity(id: id, label: "enc", keyType: .ed25519, publicKey: Self.publicKey(.ed25519),
                                      passphraseRef: .identityPassphrase(id))
        XCTAssertEqual(try store.save(withPassphrase).passphraseRef, .identityPassphrase(id))

        let foreignKey = Identity(label: "a", keyType: .ed25519, publicKey: Self.publicKey(.ed25519), privateKeyRef: .identityPrivateKey(UUID()))
        let error = assertConfigError(.invalid, try store.save(foreignKey))
        XCTAssertEqual(error?.message, "Identity 'a' may only reference its own private key and passphrase.")
        let foreignPassphrase = Identity(label: "b", keyType: .ed25519, publicKey: Self.publicKey(.ed25519), passphraseRef: .identityPassphrase(id))
        assertConfigError(.invalid, try store.save(foreignPassphrase))
        let swapped = Identity(id: id, label: "c", keyType: .ed25519, publicKey: Self.publicKey(.ed25519), privateKeyRef: .identityPassphrase(id))
        assertConfigError(.invalid, try store.save(swapped))
    }

    func testDuplicateLabelAndBadUsername() throws {
        try saveIdentity("key")
        assertConfigError(.alreadyExists, try saveIdentity("key"))
        assertConfigError(.invalid, try store.save(Identity(label: "k2", username: "a b", keyType: .ed25519, publicKey: Self.publicKey(.ed25519))))
        assertConfigError(.invalid, try store.save(Identity(label: "3f2a9c4e-8b1d-4e6f-a0c2-5d7e9f1b3a6c", keyType: .ed25519, publicKey: Self.publicKey(.ed25519))))
    }

    func testValidateDoesNotStore() throws {
        try store.validate(Identity(label: "k", keyType: .ed25519, publicKey: Self.publicKey(.ed25519)))
        XCTAssertEqual(try store.counts().identities, 0)
        assertConfigError(.invalid, try store.validate(Identity(label: "k", keyType: .dsa, publicKey: Self.publicKey(.ed25519))))
    }

    func testRemoveIdentityRefusesWhileUsed() throws {
        let identity = try saveIdentity("key")
        var host = try saveHost("web", identityID: identity.id)
        let error = assertConfigError(.inUse, try store.removeIdentity(id: identity.id))
        XCTAssertEqual(error?.message, "Identity 'key' is used by 'web'.")
        XCTAssertEqual(error?.hint, "Give those hosts another identity or remove them first.")
        XCTAssertNotNil(try store.identity(id: identity.id))

        host.identityID = nil
        try store.save(host)
        try store.removeIdentity(id: identity.id)
        XCTAssertNil(try store.identity(id: identity.id))
        assertConfigError(.notFound, try store.removeIdentity(id: identity.id))
    }
}
