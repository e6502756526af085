import Foundation
import KeyFormats
import Sodium
import SSHKeys
import XCTest

/// The limits that keep a hostile file from costing unbounded time: file size, key sizes, and
/// the work factor a PKCS#8 file names (bcrypt's rounds are in the rejection tests).
final class SSHSigningKeyBoundsTests: SigningTestCase {
    func testFileOverOneMiBIsRefused() throws {
        let key = try keys.key("ed25519")
        let padded = key.body.withUnsafeBytes { Array($0) } + [UInt8](repeating: 0x0A, count: SSHSigningKey.maximumFileCount)
        XCTAssertThrowsError(try SSHSigningKey(privateKey: try SecretBytes(copying: padded), passphrase: nil, publicBlob: key.publicBlob)) { error in
            XCTAssertEqual((error as? SSHKeyError)?.kind, .malformed)
        }
    }

    /// OpenSSH refuses RSA keys under 1,024 bits; so does this module, whatever the file says.
    func testShortRSAKeyIsUnsupported() throws {
        let path = "\(keys.directory)/rsa-768-\(UUID().uuidString)"
        try KeyMaker.run("/usr/bin/openssl", ["genrsa", "-out", path, "768"])
        let body = try SecretBytes(copying: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertThrowsError(try SSHSigningKey(privateKey: body, passphrase: nil, publicBlob: try keys.key("rsa", bits: 2048).publicBlob)) { error in
            XCTAssertEqual((error as? SSHKeyError)?.kind, .unsupported)
            XCTAssertEqual((error as? SSHKeyError)?.message, "Unable to open the SSH private key: its RSA modulus is 768 bits; SSH keys have 1024 to 16384.")
        }
    }

    /// scrypt at OpenSSL's own settings opens; the same structure asking for too much work, or
    /// PBKDF2 with 2²³ iterations, is refused before any derivation, whatever the passphrase.
    func testPKCS8WorkFactorIsBounded() throws {
        let key = try keys.key("ecdsa", bits: 256, format: "PEM")
        let scrypt = key.path + ".scrypt"
        try KeyMaker.run("/usr/bin/openssl", ["pkcs8", "-topk8", "-in", key.path, "-scrypt", "-passout", "pass:" + KeyMaker.passphrase, "-out", scrypt])
        try assertOpensAndSigns(try keys.file(scrypt, publicBlob: key.publicBlob), type: "ecdsa-sha2-nistp256", encrypted: true)

        let salt = DER.element(0x04, [UInt8](repeating: 1, count: 8))
        let aes = DER.sequence([DER.element(0x06, [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2A]), DER.element(0x04, [UInt8](repeating: 2, count: 16))])
        let pbkdf2OID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0C]
        let scryptOID: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0xDA, 0x47, 0x04, 0x0B]
        let costly = [
            DER.sequence([DER.element(0x06, pbkdf2OID), DER.sequence([salt, DER.integer(1 << 23)])]),
            DER.sequence([DER.element(0x06, scryptOID), DER.sequence([salt, DER.integer(1 << 14), DER.integer(8), DER.integer(1 << 11)])]),
            DER.sequence([DER.element(0x06, scryptOID), DER.sequence([salt, DER.integer(1 << 62), DER.integer(8), DER.integer(1 << 62)])]),
        ]
        for derivation in costly {
            let pbes2 = DER.sequence([DER.element(0x06, [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0D]), DER.sequence([derivation, aes])])
            let info = DER.sequence([pbes2, DER.element(0x04, [UInt8](repeating: 3, count: 48))])
            let file = KeyFileBytes.armor(info, label: "ENCRYPTED PRIVATE KEY")
            let started = ContinuousClock.now
            XCTAssertThrowsError(try SSHSigningKey(privateKey: try SecretBytes(copying: file), passphrase: try SecretBytes(utf8: KeyMaker.passphrase),
                                                   publicBlob: key.publicBlob)) { error in
                XCTAssertEqual((error as? SSHKeyError)?.message,
                               "Unable to open the SSH private key: its PKCS#8 encryption asks for more key derivation work than is accepted.")
            }
            XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(200))
        }
    }
}

/// Just enough DER to write PKCS#8 encryption parameters.
private enum DER {
    static func element(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        let length: [UInt8] = count < 0x80 ? [UInt8(count)] : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        return [tag] + length + content
    }

    static func sequence(_ elements: [[UInt8]]) -> [UInt8] { element(0x30, elements.flatMap { $0 }) }

    static func integer(_ value: UInt64) -> [UInt8] {
        var bytes = withUnsafeBytes(of: value.bigEndian) { Array($0) }.drop { $0 == 0 }.map { $0 }
        if bytes.first.map({ $0 >= 0x80 }) ?? true { bytes.insert(0, at: 0) }
        return element(0x02, bytes)
    }
}
