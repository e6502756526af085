import Foundation
import Sodium
import SSHKeys
import XCTest

/// Keys in OpenSSH's own format, as `ssh-keygen` writes them by default: every type, plain and
/// encrypted with every cipher OpenSSH offers.
final class SSHSigningKeyOpenSSHTests: SigningTestCase {
    static let ciphers = ["aes128-ctr", "aes192-ctr", "aes256-ctr", "aes128-cbc", "aes192-cbc", "aes256-cbc",
                          "aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com", "3des-cbc"]

    func testEd25519PlainAndWithEveryCipher() throws {
        try assertOpensAndSigns(try keys.key("ed25519"), type: "ssh-ed25519")
        try assertOpensAndSigns(try keys.key("ed25519", passphrase: KeyMaker.passphrase), type: "ssh-ed25519", encrypted: true)
        for cipher in Self.ciphers {
            let key = try keys.key("ed25519", passphrase: KeyMaker.passphrase, cipher: cipher)
            XCTAssertNoThrow(try assertOpensAndSigns(key, type: "ssh-ed25519", encrypted: true), cipher)
        }
    }

    func testRSAPlainAndEncrypted() throws {
        for bits in [2048, 3072] {
            try assertOpensAndSigns(try keys.key("rsa", bits: bits), type: "ssh-rsa")
            try assertOpensAndSigns(try keys.key("rsa", bits: bits, passphrase: KeyMaker.passphrase), type: "ssh-rsa", encrypted: true)
        }
        for cipher in ["aes128-cbc", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com"] {
            let key = try keys.key("rsa", bits: 2048, passphrase: KeyMaker.passphrase, cipher: cipher)
            XCTAssertNoThrow(try assertOpensAndSigns(key, type: "ssh-rsa", encrypted: true), cipher)
        }
    }

    func testECDSAOnEveryCurve() throws {
        for bits in [256, 384, 521] {
            let type = "ecdsa-sha2-nistp\(bits)"
            try assertOpensAndSigns(try keys.key("ecdsa", bits: bits), type: type)
            try assertOpensAndSigns(try keys.key("ecdsa", bits: bits, passphrase: KeyMaker.passphrase), type: type, encrypted: true)
        }
    }

    func testDSA() throws {
        try assertOpensAndSigns(try keys.key("dsa"), type: "ssh-dss")
        try assertOpensAndSigns(try keys.key("dsa", passphrase: KeyMaker.passphrase, cipher: "aes256-gcm@openssh.com"), type: "ssh-dss", encrypted: true)
    }

    /// The check can fail: a signature over another message, or by another key, is rejected.
    func testOpenSSHRejectsAWrongSignature() throws {
        let key = try keys.key("ed25519")
        let opened = try SSHSigningKey(privateKey: key.body, passphrase: nil, publicBlob: key.publicBlob)
        let message = Random.bytes(count: 64)
        let signature = try opened.sign(SignatureCheck.signedData(for: message), flags: 0)
        XCTAssertTrue(try SignatureCheck.openSSHAccepts(signature, publicBlob: key.publicBlob, message: message, in: keys.directory))
        XCTAssertFalse(try SignatureCheck.openSSHAccepts(signature, publicBlob: key.publicBlob, message: message + [0], in: keys.directory))
        let other = try keys.key("ecdsa", bits: 256)
        let otherKey = try SSHSigningKey(privateKey: other.body, passphrase: nil, publicBlob: other.publicBlob)
        let otherSignature = try otherKey.sign(SignatureCheck.signedData(for: message), flags: 0)
        XCTAssertFalse(try SignatureCheck.openSSHAccepts(otherSignature, publicBlob: key.publicBlob, message: message, in: keys.directory))
    }

    /// ssh-keygen's default encryption (aes256-ctr, bcrypt_pbkdf with 16 rounds) must open in well
    /// under a second in this debug build: the Blowfish core is C compiled with -O2.
    func testDefaultEncryptedKeyOpensWellUnderASecond() throws {
        let key = try keys.key("ed25519", passphrase: KeyMaker.passphrase)
        let passphrase = try SecretBytes(utf8: KeyMaker.passphrase)
        let clock = ContinuousClock()
        var opened: SSHSigningKey?
        let elapsed = try clock.measure {
            opened = try SSHSigningKey(privateKey: key.body, passphrase: passphrase, publicBlob: key.publicBlob)
        }
        XCTAssertEqual(opened?.keyType, "ssh-ed25519")
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1_000
        print("Opening an aes256-ctr, 16-round bcrypt_pbkdf key took \(Int(milliseconds)) ms")
        XCTAssertLessThan(milliseconds, 1_000)
    }
}
