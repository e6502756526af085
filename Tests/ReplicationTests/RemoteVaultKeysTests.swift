import Foundation
import Sodium
import XCTest
@testable import Replication

/// `vault.json`: keys open only with the sync passphrase and only for the vault id they name.
final class RemoteVaultKeysTests: XCTestCase {
    private func assertCode(_ code: ReplicationError.Code, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { XCTAssertEqual(($0 as? ReplicationError)?.code, code, "\($0)", file: file, line: line) }
    }

    func testKeysRoundTripUnderTheSyncPassphraseAndNothingSecretIsInTheClear() throws {
        let keys = RemoteVaultKeys(vaultID: "vault-1", vaultKey: try .random(count: 32), transportKey: try .random(count: 32))
        let bytes = try keys.encoded(passphrase: try SecretBytes(utf8: "sync words"), kdf: .insecureForTesting())
        XCTAssertEqual(try RemoteVaultKeys.vaultID(in: bytes), "vault-1")
        let opened = try RemoteVaultKeys.open(bytes, passphrase: try SecretBytes(utf8: "sync words"))
        XCTAssertEqual(opened.vaultKey, keys.vaultKey)
        XCTAssertEqual(opened.transportKey, keys.transportKey)
        let text = String(decoding: bytes, as: UTF8.self)
        for key in [keys.vaultKey, keys.transportKey] {
            key.withUnsafeBytes { raw in
                XCTAssertFalse(text.contains(Data(raw).base64EncodedString()))
                XCTAssertNil(Data(bytes).range(of: Data(raw)))
            }
        }
    }

    func testAWrongPassphraseOrAnAlteredIdDoesNotOpen() throws {
        let keys = RemoteVaultKeys(vaultID: "vault-1", vaultKey: try .random(count: 32), transportKey: try .random(count: 32))
        let bytes = try keys.encoded(passphrase: try SecretBytes(utf8: "sync words"), kdf: .insecureForTesting())
        assertCode(.authenticationFailed) { _ = try RemoteVaultKeys.open(bytes, passphrase: try SecretBytes(utf8: "other words")) }
        let altered = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "vault-1", with: "vault-2").utf8)
        assertCode(.authenticationFailed) { _ = try RemoteVaultKeys.open(altered, passphrase: try SecretBytes(utf8: "sync words")) }
    }

    func testForeignOrNewerFilesAreRecognised() throws {
        assertCode(.malformed) { _ = try RemoteVaultKeys.vaultID(in: Array("{\"hello\": 1}".utf8)) }
        let newer = Array(#"{"format": 2, "vault_id": "v", "kdf": "argon2id13", "ops_limit": 1, "mem_limit": 8192, "salt": "", "wrapped_keys": ""}"#.utf8)
        assertCode(.unsupportedFormat) { _ = try RemoteVaultKeys.vaultID(in: newer) }
    }
}
