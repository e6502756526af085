import Foundation
import Replication
import XCTest
@testable import CredentialVault
import struct Identifiers.UUID

/// A kept secret of an identity removed elsewhere brings the identity back — only with its
/// private key, so it never names a deleted secret.
final class RemovedIdentityRestoreTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("removed-identity-XXXXXX").utf8CString)
        directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func testAKeptPrivateKeyOfARemovedIdentityBringsItBackAndAPassphraseAloneDoesNot() throws {
        let a = try VaultDevice.creatingRemote(name: "a", id: UUID(), directory: directory, remoteRoot: directory + "/remote", skewMilliseconds: 0)
        let b = try VaultDevice.joining(name: "b", id: UUID(), directory: directory, remoteRoot: directory + "/remote", skewMilliseconds: 0)
        func sync(_ device: VaultDevice) throws { _ = try device.vault.sync(compaction: CompactionPolicy()) }
        try KeyFixtures.generate(directory + "/key", type: "ed25519", passphrase: "first")
        let identity = try a.vault.addIdentity(label: "laptop", privateKeyPath: directory + "/key", passphrase: try SecretBytes(utf8: "first"))
        for device in [a, b] { try sync(device) }
        // A writes both secrets again and uploads them; B removes the identity without having seen it.
        let privateKey = try a.vault.secrets.read(identity.privateKeyRef.key)
        try a.vault.secrets.put(privateKey, for: identity.privateKeyRef.key)
        try a.vault.secrets.put(try SecretBytes(utf8: "second"), for: try XCTUnwrap(identity.passphraseRef).key)
        try sync(a)
        usleep(2_000)
        try b.vault.removeIdentity("laptop")
        for device in [b, a] { try sync(device) }
        XCTAssertNil(try a.vault.config.identity(id: identity.id))
        let kept = try a.vault.conflicts()
        XCTAssertEqual(Set(kept.map(\.lost.reference)), [identity.privateKeyRef.key, try XCTUnwrap(identity.passphraseRef).key])

        let passphrase = try XCTUnwrap(kept.first { $0.lost.reference == identity.passphraseRef?.key })
        XCTAssertThrowsError(try a.vault.restoreConflict(passphrase.id)) { XCTAssertEqual(($0 as? VaultError)?.code, .notFound, "\($0)") }
        XCTAssertNil(try a.vault.config.identity(id: identity.id), "nothing restored")
        let key = try XCTUnwrap(kept.first { $0.lost.reference == identity.privateKeyRef.key })
        try a.vault.restoreConflict(key.id)
        try a.vault.restoreConflict(passphrase.id)
        XCTAssertEqual(try a.vault.conflicts(), [])
        for device in [a, b] { try sync(device) }
        let back = try XCTUnwrap(try b.vault.config.identity(id: identity.id))
        XCTAssertEqual(back.label, "laptop")
        XCTAssertEqual(try b.vault.secrets.read(try XCTUnwrap(back.passphraseRef).key).withUnsafeBytes { Array($0) }, Array("second".utf8))
    }
}
