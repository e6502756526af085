import Foundation
import KeyFormats
import Sodium
import SSHKeys
import XCTest

/// OpenSSL PEM keys as `ssh-keygen -m PEM` and `-m PKCS8` write them — PKCS#1, SEC 1, DSA and
/// PKCS#8, plain, legacy-encrypted (Proc-Type/DEK-Info) and PKCS#8-encrypted — and an Ed25519
/// PKCS#8 key from `openssl genpkey`, which ssh-keygen does not write.
final class SSHSigningKeyPEMTests: SigningTestCase {
    func testRSA() throws {
        for format in ["PEM", "PKCS8"] {
            try assertOpensAndSigns(try keys.key("rsa", bits: 2048, format: format), type: "ssh-rsa")
            try assertOpensAndSigns(try keys.key("rsa", bits: 2048, format: format, passphrase: KeyMaker.passphrase), type: "ssh-rsa", encrypted: true)
        }
    }

    func testECDSAOnEveryCurve() throws {
        for bits in [256, 384, 521] {
            for format in ["PEM", "PKCS8"] {
                try assertOpensAndSigns(try keys.key("ecdsa", bits: bits, format: format), type: "ecdsa-sha2-nistp\(bits)")
            }
        }
        try assertOpensAndSigns(try keys.key("ecdsa", bits: 384, format: "PEM", passphrase: KeyMaker.passphrase),
                                type: "ecdsa-sha2-nistp384", encrypted: true)
        try assertOpensAndSigns(try keys.key("ecdsa", bits: 521, format: "PKCS8", passphrase: KeyMaker.passphrase),
                                type: "ecdsa-sha2-nistp521", encrypted: true)
    }

    func testDSA() throws {
        for format in ["PEM", "PKCS8"] {
            try assertOpensAndSigns(try keys.key("dsa", format: format), type: "ssh-dss")
            try assertOpensAndSigns(try keys.key("dsa", format: format, passphrase: KeyMaker.passphrase), type: "ssh-dss", encrypted: true)
        }
    }

    /// The labels are what the formats promise, so the tests above cover each.
    func testKeygenWritesTheExpectedLabels() throws {
        let expected: [(KeyMaker.Key, String)] = [
            (try keys.key("rsa", bits: 2048, format: "PEM"), "RSA PRIVATE KEY"),
            (try keys.key("ecdsa", bits: 256, format: "PEM"), "EC PRIVATE KEY"),
            (try keys.key("dsa", format: "PEM"), "DSA PRIVATE KEY"),
            (try keys.key("rsa", bits: 2048, format: "PKCS8"), "PRIVATE KEY"),
            (try keys.key("rsa", bits: 2048, format: "PKCS8", passphrase: KeyMaker.passphrase), "ENCRYPTED PRIVATE KEY"),
        ]
        for (key, label) in expected {
            let armor = try key.body.withUnsafeBytes { try PEMArmor(parsing: $0) }
            XCTAssertEqual(armor.label, label)
        }
        let legacy = try keys.key("rsa", bits: 2048, format: "PEM", passphrase: KeyMaker.passphrase)
        XCTAssertTrue(try legacy.body.withUnsafeBytes { try PEMArmor(parsing: $0) }.isLegacyEncrypted)
    }

    func testEd25519PKCS8() throws {
        try assertOpensAndSigns(try ed25519PKCS8(encrypted: false), type: "ssh-ed25519")
        try assertOpensAndSigns(try ed25519PKCS8(encrypted: true), type: "ssh-ed25519", encrypted: true)
    }

    /// An Ed25519 PKCS#8 key from `openssl genpkey`, and the SSH public blob of the public key
    /// OpenSSL derives (the last 32 bytes of its SubjectPublicKeyInfo).
    private func ed25519PKCS8(encrypted: Bool) throws -> KeyMaker.Key {
        let path = "\(keys.directory)/ed25519-pkcs8-\(UUID().uuidString)"
        var arguments = ["genpkey", "-algorithm", "ed25519", "-out", path]
        if encrypted { arguments += ["-aes-256-cbc", "-pass", "pass:" + KeyMaker.passphrase] }
        try KeyMaker.run("/usr/bin/openssl", arguments)
        var export = ["pkey", "-in", path, "-pubout", "-outform", "DER", "-out", path + ".der"]
        if encrypted { export += ["-passin", "pass:" + KeyMaker.passphrase] }
        try KeyMaker.run("/usr/bin/openssl", export)
        let publicKey = Array(try Data(contentsOf: URL(fileURLWithPath: path + ".der")).suffix(32))
        var blob = SSHWireWriter()
        blob.string("ssh-ed25519")
        blob.string(publicKey)
        try Data(("ssh-ed25519 " + Base64.encode(blob.bytes) + "\n").utf8).write(to: URL(fileURLWithPath: path + ".pub"))
        return try keys.load(path, publicKeyFile: path + ".pub")
    }
}
