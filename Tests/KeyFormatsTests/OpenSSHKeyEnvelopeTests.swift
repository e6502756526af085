import KeyFormats
import XCTest

/// The envelope of encrypted keys, which import only checks and signing reads: cipher sizes,
/// bcrypt's salt and rounds, the section and the AEAD tag after it.
final class OpenSSHKeyEnvelopeTests: XCTestCase {
    func testReadsEncryptedEnvelope() throws {
        let salt = [UInt8](repeating: 0x5a, count: 16)
        let section = [UInt8](repeating: 0xc3, count: 48)
        let tag = [UInt8](repeating: 0x7e, count: 16)
        let body = envelope(cipher: "aes256-gcm@openssh.com", kdf: "bcrypt", options: bcryptOptions(salt: salt, rounds: 16), section: section) + tag
        try body.withUnsafeBytes { bytes in
            let envelope = try OpenSSHKeyEnvelope(parsing: bytes)
            XCTAssertTrue(envelope.isEncrypted)
            XCTAssertEqual(envelope.cipher, OpenSSHCipher.named("aes256-gcm@openssh.com"))
            XCTAssertEqual(envelope.cipher.keyLength + envelope.cipher.ivLength, 44)
            XCTAssertEqual(envelope.salt, salt)
            XCTAssertEqual(envelope.rounds, 16)
            XCTAssertEqual(Array(envelope.privateSection), section)
            XCTAssertEqual(Array(envelope.tag), tag)
            XCTAssertEqual(envelope.publicBlob, publicBlob)
        }
    }

    func testRejectsInconsistentEnvelopes() {
        let options = bcryptOptions(salt: [1, 2, 3], rounds: 16)
        let section = [UInt8](repeating: 0, count: 32)
        let cases: [([UInt8], String)] = [
            (envelope(cipher: "aes256-ctr", kdf: "bcrypt", options: options, section: section) + [0], "the key data is truncated or corrupt"),
            (envelope(cipher: "aes256-gcm@openssh.com", kdf: "bcrypt", options: options, section: section), "the key data is truncated or corrupt"),
            (envelope(cipher: "aes256-ctr", kdf: "bcrypt", options: options, section: Array(section.prefix(24))), "the key data is truncated or corrupt"),
            (envelope(cipher: "aes256-ctr", kdf: "scrypt", options: options, section: section), "it uses a key derivation function OpenSSH does not support"),
            (envelope(cipher: "aes256-ctr", kdf: "bcrypt", options: bcryptOptions(salt: [1], rounds: 0), section: section),
             "its key derivation settings are malformed"),
            (envelope(cipher: "none", kdf: "bcrypt", options: options, section: section), "its key derivation settings are inconsistent"),
            (envelope(cipher: "blowfish-cbc", kdf: "bcrypt", options: options, section: section), "it is encrypted with a cipher OpenSSH does not support"),
        ]
        for (body, reason) in cases {
            XCTAssertThrowsError(try body.withUnsafeBytes { try OpenSSHKeyEnvelope(parsing: $0) }, reason) { error in
                XCTAssertEqual((error as? KeyFileDefect)?.reason, reason)
            }
        }
    }

    private let publicBlob: [UInt8] = {
        var writer = SSHWireWriter()
        writer.string("ssh-ed25519")
        writer.string([UInt8](repeating: 1, count: 32))
        return writer.bytes
    }()

    private func bcryptOptions(salt: [UInt8], rounds: UInt32) -> [UInt8] {
        var writer = SSHWireWriter()
        writer.string(salt)
        writer.uint32(rounds)
        return writer.bytes
    }

    private func envelope(cipher: String, kdf: String, options: [UInt8], section: [UInt8]) -> [UInt8] {
        var writer = SSHWireWriter()
        writer.string(cipher)
        writer.string(kdf)
        writer.string(options)
        writer.uint32(1)
        writer.string(publicBlob)
        writer.string(section)
        return Array("openssh-key-v1\0".utf8) + writer.bytes
    }
}
