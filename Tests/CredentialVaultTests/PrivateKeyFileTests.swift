import ConfigTrack
import CredentialVault
import Foundation
import Sodium
import XCTest
import struct Identifiers.UUID

/// `PrivateKeyFile` against real keys written by `ssh-keygen`, each test in a fresh directory.
/// Rejections and fuzzing are in `PrivateKeyFileTests+Rejections.swift`.
final class PrivateKeyFileTests: XCTestCase {
    /// RSA generation is the slow part: one key per class, converted to each format per test.
    nonisolated(unsafe) static var rsaKeyDirectory: String?
    var directory = ""

    override class func setUp() {
        super.setUp()
        let dir = NSTemporaryDirectory() + "pkf-rsa-" + UUID().uuidString
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try KeyFixtures.generate(dir + "/rsa", type: "rsa", bits: 2048, comment: "rsa@example")
            rsaKeyDirectory = dir
        } catch {
            XCTFail("Unable to generate the RSA test key: \(error)")
        }
    }

    override class func tearDown() {
        if let dir = rsaKeyDirectory { try? FileManager.default.removeItem(atPath: dir) }
        super.tearDown()
    }

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "pkf-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(atPath: directory)
    }

    /// A copy of the class's RSA key (and its .pub) in this test's directory.
    func rsaKey(_ name: String) throws -> String {
        let source = try XCTUnwrap(Self.rsaKeyDirectory) + "/rsa"
        let path = directory + "/" + name
        try FileManager.default.copyItem(atPath: source, toPath: path)
        try FileManager.default.copyItem(atPath: source + ".pub", toPath: path + ".pub")
        return path
    }

    /// Loads `path` and checks it against the file and the `.pub` ssh-keygen wrote.
    @discardableResult
    func assertLoads(_ path: String, _ keyType: KeyType, encrypted: Bool, _ format: PrivateKeyFile.Format,
                     file: StaticString = #filePath, line: UInt = #line) throws -> PrivateKeyFile {
        let key = try PrivateKeyFile.load(path: path)
        let publicLine = try KeyFixtures.text(path + ".pub")
        XCTAssertEqual(key.keyType, keyType, file: file, line: line)
        XCTAssertEqual(key.isEncrypted, encrypted, file: file, line: line)
        XCTAssertEqual(key.format, format, file: file, line: line)
        XCTAssertEqual(KeyFixtures.typeAndKey(key.publicKey), KeyFixtures.typeAndKey(publicLine), file: file, line: line)
        let fileBytes = try KeyFixtures.bytes(path)
        XCTAssertTrue(key.body == (try SecretBytes(copying: fileBytes)), "body differs from the file", file: file, line: line)
        return key
    }

    // MARK: OpenSSH format

    func testEd25519() throws {
        let path = directory + "/id_ed25519"
        try KeyFixtures.generate(path, type: "ed25519", comment: "me@laptop")
        let key = try assertLoads(path, .ed25519, encrypted: false, .openSSH)
        XCTAssertEqual(key.publicKey + "\n", try KeyFixtures.text(path + ".pub"))
        XCTAssertTrue(key.publicKey.hasSuffix(" me@laptop"))
    }

    func testACommentThatCouldReorderTheLineIsDropped() throws {
        let path = directory + "/id_bidi"
        try KeyFixtures.generate(path, type: "ed25519", comment: "evil\u{202E}moc.elpmaxe")
        let key = try PrivateKeyFile.load(path: path)
        XCTAssertEqual(key.publicKey.split(separator: " ").count, 2, "no comment: \(key.publicKey)")
        XCTAssertFalse(key.publicKey.unicodeScalars.contains("\u{202E}"))
    }

    func testEd25519Encrypted() throws {
        let path = directory + "/id_ed25519"
        try KeyFixtures.generate(path, type: "ed25519", passphrase: "passphrase", comment: "me@laptop")
        let key = try assertLoads(path, .ed25519, encrypted: true, .openSSH)
        // The comment is encrypted with the key; it comes from the .pub.
        XCTAssertEqual(key.publicKey + "\n", try KeyFixtures.text(path + ".pub"))
    }

    func testECDSA() throws {
        for (bits, type) in [(256, KeyType.ecdsaP256), (384, .ecdsaP384)] {
            let plain = directory + "/ecdsa\(bits)"
            try KeyFixtures.generate(plain, type: "ecdsa", bits: bits)
            try assertLoads(plain, type, encrypted: false, .openSSH)
            let encrypted = directory + "/ecdsa\(bits)-enc"
            try KeyFixtures.generate(encrypted, type: "ecdsa", bits: bits, passphrase: "passphrase")
            try assertLoads(encrypted, type, encrypted: true, .openSSH)
        }
    }

    func testRSA() throws {
        let key = try assertLoads(try rsaKey("id_rsa"), .rsa, encrypted: false, .openSSH)
        XCTAssertTrue(key.publicKey.hasSuffix(" rsa@example"))
        let encrypted = try rsaKey("id_rsa_enc")
        try KeyFixtures.convert(encrypted, format: "RFC4716", passphrase: "passphrase")
        try assertLoads(encrypted, .rsa, encrypted: true, .openSSH)
    }

    func testOpenSSHKeyWithoutPubUsesCommentFromPrivateSection() throws {
        let path = directory + "/id_ed25519"
        try KeyFixtures.generate(path, type: "ed25519", comment: "inside the key")
        let expected = try KeyFixtures.text(path + ".pub").trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.removeItem(atPath: path + ".pub")
        XCTAssertEqual(try PrivateKeyFile.load(path: path).publicKey, expected)
    }

    func testEncryptedOpenSSHKeyWithoutPubHasNoComment() throws {
        let path = directory + "/id_ed25519"
        try KeyFixtures.generate(path, type: "ed25519", passphrase: "passphrase")
        let expected = KeyFixtures.typeAndKey(try KeyFixtures.text(path + ".pub"))
        try FileManager.default.removeItem(atPath: path + ".pub")
        XCTAssertEqual(try PrivateKeyFile.load(path: path).publicKey, expected)
    }

    func testParseMatchesLoad() throws {
        let path = directory + "/id_ed25519"
        try KeyFixtures.generate(path, type: "ed25519")
        let body = try SecretBytes(copying: try KeyFixtures.bytes(path))
        let parsed = try PrivateKeyFile.parse(body: body, publicKeyLine: nil)
        XCTAssertEqual(parsed.publicKey, try PrivateKeyFile.load(path: path).publicKey)
        XCTAssertEqual(parsed.format, .openSSH)
    }

    // MARK: PEM and PKCS#8

    func testRSAPEM() throws {
        let plain = try rsaKey("rsa-pem")
        try KeyFixtures.convert(plain, format: "PEM")
        XCTAssertTrue(try KeyFixtures.text(plain).hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
        let key = try assertLoads(plain, .rsa, encrypted: false, .pem)
        XCTAssertTrue(key.publicKey.hasSuffix(" rsa@example"))

        let encrypted = try rsaKey("rsa-pem-enc")
        try KeyFixtures.convert(encrypted, format: "PEM", passphrase: "passphrase")
        XCTAssertTrue(try KeyFixtures.text(encrypted).contains("Proc-Type: 4,ENCRYPTED"))
        try assertLoads(encrypted, .rsa, encrypted: true, .pem)
    }

    func testECDSAPEM() throws {
        for (bits, type) in [(256, KeyType.ecdsaP256), (384, .ecdsaP384)] {
            let plain = directory + "/ec\(bits)-pem"
            try KeyFixtures.generate(plain, type: "ecdsa", bits: bits, format: "PEM")
            XCTAssertTrue(try KeyFixtures.text(plain).hasPrefix("-----BEGIN EC PRIVATE KEY-----"))
            try assertLoads(plain, type, encrypted: false, .pem)
            let encrypted = directory + "/ec\(bits)-pem-enc"
            try KeyFixtures.generate(encrypted, type: "ecdsa", bits: bits, passphrase: "passphrase", format: "PEM")
            try assertLoads(encrypted, type, encrypted: true, .pem)
        }
    }

    func testPKCS8() throws {
        let rsa = try rsaKey("rsa-pkcs8")
        try KeyFixtures.convert(rsa, format: "PKCS8")
        XCTAssertTrue(try KeyFixtures.text(rsa).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        try assertLoads(rsa, .rsa, encrypted: false, .pem)

        let rsaEncrypted = try rsaKey("rsa-pkcs8-enc")
        try KeyFixtures.convert(rsaEncrypted, format: "PKCS8", passphrase: "passphrase")
        XCTAssertTrue(try KeyFixtures.text(rsaEncrypted).hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
        try assertLoads(rsaEncrypted, .rsa, encrypted: true, .pem)

        let ec = directory + "/ec-pkcs8"
        try KeyFixtures.generate(ec, type: "ecdsa", bits: 384, format: "PKCS8")
        try assertLoads(ec, .ecdsaP384, encrypted: false, .pem)
        let ecEncrypted = directory + "/ec-pkcs8-enc"
        try KeyFixtures.generate(ecEncrypted, type: "ecdsa", passphrase: "passphrase", format: "PKCS8")
        try assertLoads(ecEncrypted, .ecdsaP256, encrypted: true, .pem)
    }

    func testPEMWithoutPubIsRejectedWithHint() throws {
        let path = directory + "/ec-pem"
        try KeyFixtures.generate(path, type: "ecdsa", format: "PEM")
        try FileManager.default.removeItem(atPath: path + ".pub")
        let error = try XCTUnwrap(capture { try PrivateKeyFile.load(path: path) })
        XCTAssertEqual(error.code, .invalidInput)
        XCTAssertEqual(error.message, "Unable to import private key '\(path)': a PEM key does not record its public key, and '\(path).pub' is missing.")
        XCTAssertEqual(error.hint, "Put the public key beside it as \(path).pub.")
    }

    func testPEMWithMismatchedPubIsRejected() throws {
        let path = directory + "/ec-pem"
        try KeyFixtures.generate(path, type: "ecdsa", format: "PEM")
        let other = directory + "/other"
        // Same type, different key: caught by comparing the EC point.
        try KeyFixtures.generate(other, type: "ecdsa")
        try FileManager.default.removeItem(atPath: path + ".pub")
        try FileManager.default.copyItem(atPath: other + ".pub", toPath: path + ".pub")
        var error = try XCTUnwrap(capture { try PrivateKeyFile.load(path: path) })
        XCTAssertEqual(error.code, .invalidInput)
        XCTAssertEqual(error.message, "Unable to import private key '\(path)': '\(path).pub' holds a different key.")
        XCTAssertEqual(error.hint, "Put the public key beside it as \(path).pub.")

        // Another type: P-384 public key beside a P-256 private key.
        try KeyFixtures.generate(directory + "/p384", type: "ecdsa", bits: 384)
        try FileManager.default.removeItem(atPath: path + ".pub")
        try FileManager.default.copyItem(atPath: directory + "/p384.pub", toPath: path + ".pub")
        error = try XCTUnwrap(capture { try PrivateKeyFile.load(path: path) })
        XCTAssertEqual(error.code, .invalidInput)

        // RSA modulus compared too (PKCS#1 and PKCS#8).
        let rsa = try rsaKey("rsa-pem")
        try KeyFixtures.convert(rsa, format: "PEM")
        try FileManager.default.removeItem(atPath: rsa + ".pub")
        let otherRSA = directory + "/other-rsa"
        try KeyFixtures.generate(otherRSA, type: "rsa", bits: 1024)
        try FileManager.default.copyItem(atPath: otherRSA + ".pub", toPath: rsa + ".pub")
        error = try XCTUnwrap(capture { try PrivateKeyFile.load(path: rsa) })
        XCTAssertEqual(error.message, "Unable to import private key '\(rsa)': '\(rsa).pub' holds a different key.")
        try KeyFixtures.convert(rsa, format: "PKCS8")
        XCTAssertEqual(capture { try PrivateKeyFile.load(path: rsa) }?.code, .invalidInput)
    }

    func testPEMWithInvalidPubIsRejectedWithHint() throws {
        let path = directory + "/ec-pem"
        try KeyFixtures.generate(path, type: "ecdsa", format: "PEM")
        try KeyFixtures.write("ecdsa-sha2-nistp256 not*base64\n", to: path + ".pub")
        let error = try XCTUnwrap(capture { try PrivateKeyFile.load(path: path) })
        XCTAssertEqual(error.code, .invalidInput)
        XCTAssertEqual(error.hint, "Put the public key beside it as \(path).pub.")
        XCTAssertTrue(error.message.hasPrefix("Unable to import private key '\(path)': '\(path).pub' is not a usable public key"))
    }

    func testOpenSSHKeyWithMismatchedPubIsRejected() throws {
        let path = directory + "/id_ed25519"
        try KeyFixtures.generate(path, type: "ed25519")
        try FileManager.default.removeItem(atPath: path + ".pub")
        try KeyFixtures.generate(directory + "/other", type: "ed25519")
        try FileManager.default.copyItem(atPath: directory + "/other.pub", toPath: path + ".pub")
        let error = try XCTUnwrap(capture { try PrivateKeyFile.load(path: path) })
        XCTAssertEqual(error.code, .invalidInput)
        XCTAssertEqual(error.message, "Unable to import private key '\(path)': '\(path).pub' holds a different key.")
    }

    /// The `VaultError` `body` throws, or nil (failing the test) when it throws nothing or another error.
    func capture(_ body: () throws -> Any, file: StaticString = #filePath, line: UInt = #line) -> VaultError? {
        do {
            _ = try body()
            XCTFail("expected a VaultError", file: file, line: line)
        } catch let error as VaultError {
            return error
        } catch {
            XCTFail("expected a VaultError, got \(error)", file: file, line: line)
        }
        return nil
    }
}
