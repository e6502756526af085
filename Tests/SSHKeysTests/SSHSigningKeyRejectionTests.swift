import Foundation
import KeyFormats
import Sodium
import SSHKeys
import XCTest

/// What must not open, and how it fails: the exact kind, a message that shows no secret, and
/// never a crash on damaged bytes.
final class SSHSigningKeyRejectionTests: XCTestCase {
    let keys = KeyMaker.shared

    func testWrongPassphraseForEveryEncryption() throws {
        var encrypted = try ["aes256-ctr", "aes128-cbc", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com", "3des-cbc"].map {
            try keys.key("ed25519", passphrase: KeyMaker.passphrase, cipher: $0)
        }
        encrypted.append(try keys.key("rsa", bits: 2048, format: "PEM", passphrase: KeyMaker.passphrase))
        encrypted.append(try keys.key("ecdsa", bits: 256, format: "PKCS8", passphrase: KeyMaker.passphrase))
        for key in encrypted {
            let error = try assertOpenFails(key, passphrase: "not the passphrase", .wrongPassphrase)
            XCTAssertEqual(error?.message, "Unable to open the SSH private key: the passphrase is wrong.")
        }
    }

    func testMissingOrEmptyPassphrase() throws {
        for key in [try keys.key("ed25519", passphrase: KeyMaker.passphrase), try keys.key("dsa", format: "PEM", passphrase: KeyMaker.passphrase),
                    try keys.key("rsa", bits: 2048, format: "PKCS8", passphrase: KeyMaker.passphrase)] {
            try assertOpenFails(key, passphrase: nil, .passphraseNeeded)
            try assertOpenFails(key, passphrase: "", .passphraseNeeded)
        }
        // A plain key ignores a passphrase it does not need.
        let plain = try keys.key("ecdsa", bits: 256)
        XCTAssertNoThrow(try SSHSigningKey(privateKey: plain.body, passphrase: try SecretBytes(utf8: "unused"), publicBlob: plain.publicBlob))
    }

    /// The recorded blob of another key, or of the same key with a byte changed, is refused
    /// before any passphrase work for OpenSSH keys, and after reading for PEM keys.
    func testAnotherPublicKeyIsAMismatch() throws {
        let other = try keys.key("ed25519", instance: 1).publicBlob
        for key in [try keys.key("ed25519", passphrase: KeyMaker.passphrase), try keys.key("ecdsa", bits: 384, format: "PEM"),
                    try keys.key("rsa", bits: 2048, format: "PKCS8", passphrase: KeyMaker.passphrase)] {
            try assertOpenFails(KeyMaker.Key(path: key.path, body: key.body, publicBlob: other), passphrase: KeyMaker.passphrase, .mismatch)
            var changed = key.publicBlob
            changed[changed.count - 1] ^= 1
            try assertOpenFails(KeyMaker.Key(path: key.path, body: key.body, publicBlob: changed), passphrase: KeyMaker.passphrase, .mismatch)
        }
    }

    /// Security keys cannot sign without their token, whatever the rest of the file holds.
    func testSecurityKeysAreUnsupported() throws {
        let ed25519 = (0..<32).map { UInt8($0) }
        let edPublic = KeyFileBytes.blob(["sk-ssh-ed25519@openssh.com", ed25519, "ssh:"])
        let point = [4] + [UInt8](repeating: 7, count: 64)
        let ecdsaPublic = KeyFileBytes.blob(["sk-ecdsa-sha2-nistp256@openssh.com", "nistp256", point, "ssh:"])
        for publicBlob in [edPublic, ecdsaPublic] {
            var section = SSHWireWriter()
            section.uint32(7)
            section.uint32(7)
            let file = KeyFileBytes.armor(KeyFileBytes.envelope(publicBlob: publicBlob, section: section.bytes + publicBlob + [1] + KeyFileBytes.blob(["handle", "", "comment"])))
            let error = try assertOpenFails(KeyMaker.Key(path: "", body: try SecretBytes(copying: file), publicBlob: publicBlob), passphrase: nil, .unsupported)
            XCTAssertTrue(error?.message.contains("hardware token") == true, error?.message ?? "")
        }
    }

    /// A file asking for more bcrypt rounds than allowed is refused at once, not worked through.
    func testAbsurdRoundCountIsRefusedAtOnce() throws {
        let key = try keys.key("ed25519", passphrase: KeyMaker.passphrase)
        var decoded = try key.body.withUnsafeBytes { try PEMArmor(parsing: $0) }.decoded.withUnsafeBytes { Array($0) }
        decoded.replaceSubrange(KeyFileBytes.roundsBytes(decoded), with: [0, 0x10, 0, 0])  // 2^20 rounds
        let started = ContinuousClock.now
        let error = try assertOpenFails(KeyMaker.Key(path: key.path, body: try SecretBytes(copying: KeyFileBytes.armor(decoded)), publicBlob: key.publicBlob),
                                        passphrase: KeyMaker.passphrase, .unsupported)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1))
        XCTAssertEqual(error?.message, "Unable to open the SSH private key: its passphrase is stretched with more bcrypt rounds than the 4096 accepted.")
    }

    /// Every truncation and many single-byte changes of real files, in the armour and in the
    /// binary inside it: each opens as the same key or fails with an SSHKeyError, never a crash.
    func testDamagedFilesFailCleanly() throws {
        // One bcrypt round keeps the damaged copies that reach the KDF cheap.
        let files = [try keys.key("ed25519"), try keys.key("ed25519", passphrase: KeyMaker.passphrase, cipher: "chacha20-poly1305@openssh.com", rounds: 1),
                     try keys.key("rsa", bits: 2048), try keys.key("ecdsa", bits: 521), try keys.key("dsa"),
                     try keys.key("ecdsa", bits: 256, format: "PEM"), try keys.key("rsa", bits: 2048, format: "PKCS8", passphrase: KeyMaker.passphrase)]
        var generator = SystemRandomNumberGenerator()
        for key in files {
            let bytes = key.body.withUnsafeBytes { Array($0) }
            let armor = try key.body.withUnsafeBytes { try PEMArmor(parsing: $0) }
            let decoded = armor.decoded.withUnsafeBytes { Array($0) }
            var variants = stride(from: 0, to: bytes.count, by: max(1, bytes.count / 40)).map { Array(bytes.prefix($0)) }
            variants += stride(from: 0, to: decoded.count, by: max(1, decoded.count / 60)).map { KeyFileBytes.armor(Array(decoded.prefix($0)), label: armor.label) }
            let rounds = KeyFileBytes.roundsBytes(decoded)
            for _ in 0..<60 {
                var changed = decoded
                let index = Int.random(in: 0..<changed.count, using: &generator)
                // A changed round count makes a valid file that only takes longer (up to half a minute) to try.
                guard !rounds.contains(index) else { continue }
                changed[index] ^= UInt8.random(in: 1...255, using: &generator)
                variants.append(KeyFileBytes.armor(changed, label: armor.label))
            }
            for variant in variants {
                // Unencrypted keys get a passphrase too, so damage that turns them "encrypted" reaches the KDF.
                do {
                    let opened = try SSHSigningKey(privateKey: try SecretBytes(copying: variant), passphrase: try SecretBytes(utf8: KeyMaker.passphrase),
                                                   publicBlob: key.publicBlob)
                    XCTAssertNoThrow(try opened.sign([1, 2, 3], flags: 0))
                } catch {
                    XCTAssertTrue(error is SSHKeyError)
                }
            }
        }
    }

    /// The private key of a well-formed file that does not belong to its public key is refused:
    /// an Ed25519 seed that derives another public key; an RSA d, CRT coefficient or prime that
    /// would sign wrongly (or make OpenSSL fail to sign); an ECDSA or DSA private number.
    func testPrivateHalfThatDoesNotBelongIsMalformed() throws {
        let rsa = try keys.key("rsa", bits: 2048)
        for (key, field) in [(try keys.key("ed25519"), 1), (rsa, 2), (rsa, 3), (rsa, 4), (try keys.key("ecdsa", bits: 256), 2), (try keys.key("dsa"), 4)] {
            var decoded = try key.body.withUnsafeBytes { try PEMArmor(parsing: $0) }.decoded.withUnsafeBytes { Array($0) }
            let offset = try decoded.withUnsafeBytes { bytes -> Int in
                let envelope = try OpenSSHKeyEnvelope(parsing: bytes)
                let section = try OpenSSHPrivateSection(parsing: envelope.privateSection, publicBlob: envelope.publicBlob, checkFailure: CocoaError(.fileReadCorruptFile))
                return section.fields[field].baseAddress! - bytes.baseAddress! + 3
            }
            decoded[offset] ^= 0x10
            let damaged = KeyMaker.Key(path: key.path, body: try SecretBytes(copying: KeyFileBytes.armor(decoded)), publicBlob: key.publicBlob)
            try assertOpenFails(damaged, passphrase: nil, .malformed)
        }
    }

    func testNotAKeyFile() throws {
        let key = try keys.key("ed25519")
        for text in ["", "hello", "ssh-ed25519 \(Base64.encode(key.publicBlob)) test@example\n", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"] {
            try assertOpenFails(KeyMaker.Key(path: "", body: try SecretBytes(utf8: text), publicBlob: key.publicBlob), passphrase: nil, .malformed)
        }
    }

    /// Messages show neither the passphrase tried nor any line of the file.
    func testMessagesHoldNoSecret() throws {
        let key = try keys.key("rsa", bits: 2048, format: "PEM", passphrase: KeyMaker.passphrase)
        let lines = key.body.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }.split(separator: "\n").dropFirst(3).dropLast()
        var damaged = key.body.withUnsafeBytes { Array($0) }
        damaged[damaged.count / 2] = UInt8(ascii: "!")
        for (body, passphrase) in [(key.body, "wrong passphrase 2"), (try SecretBytes(copying: damaged), KeyMaker.passphrase)] {
            let error = try assertOpenFails(KeyMaker.Key(path: key.path, body: body, publicBlob: key.publicBlob), passphrase: passphrase, nil)
            let message = error?.message ?? ""
            XCTAssertFalse(message.contains(passphrase) || message.contains(KeyMaker.passphrase))
            XCTAssertFalse(lines.contains { message.contains($0) })
        }
    }

    // MARK: Helpers

    /// Asserts that opening fails with `kind` (any kind when nil) and returns the error.
    @discardableResult
    private func assertOpenFails(_ key: KeyMaker.Key, passphrase: String?, _ kind: SSHKeyError.Kind?,
                                 file: StaticString = #filePath, line: UInt = #line) throws -> SSHKeyError? {
        let secret = try passphrase.map(SecretBytes.init(utf8:))
        do {
            _ = try SSHSigningKey(privateKey: key.body, passphrase: secret, publicBlob: key.publicBlob)
            XCTFail("the key opened", file: file, line: line)
            return nil
        } catch {
            if let kind { XCTAssertEqual(error.kind, kind, error.message, file: file, line: line) }
            return error
        }
    }
}
