import KeyFormats
import Sodium
import SSHKeys
import XCTest

/// Opens keys made by ssh-keygen and has OpenSSH (or OpenSSL) verify what they sign.
class SigningTestCase: XCTestCase {
    let keys = KeyMaker.shared

    /// Opens `key` (with the test passphrase when `encrypted`), checks its type, signs random
    /// data with several flag values, and has `ssh-keygen -Y check-novalidate` verify every
    /// signature. RSA signs with each of flags 2, 4 and 6 (SHA-256 wins, as in OpenSSH's
    /// agent), and with 0 as SHA-1 `ssh-rsa`, which OpenSSL verifies; other types ignore flags.
    @discardableResult
    func assertOpensAndSigns(_ key: KeyMaker.Key, type: String, encrypted: Bool = false,
                             file: StaticString = #filePath, line: UInt = #line) throws -> SSHSigningKey {
        let passphrase = encrypted ? try SecretBytes(utf8: KeyMaker.passphrase) : nil
        let opened = try SSHSigningKey(privateKey: key.body, passphrase: passphrase, publicBlob: key.publicBlob)
        XCTAssertEqual(opened.keyType, type, file: file, line: line)
        XCTAssertEqual(opened.publicBlob, key.publicBlob, file: file, line: line)
        let message = Random.bytes(count: 300)
        let rsa: [(flags: UInt32, name: String)] = [(2, "rsa-sha2-256"), (4, "rsa-sha2-512"), (6, "rsa-sha2-256")]
        let others: [(flags: UInt32, name: String)] = [(0, type), (6, type)]
        let algorithms = type == "ssh-rsa" ? rsa : others
        for (flags, name) in algorithms {
            let signature = try opened.sign(SignatureCheck.signedData(for: message), flags: flags)
            XCTAssertEqual(try SSHWireReader.typeName(of: signature), name, "flags \(flags)", file: file, line: line)
            XCTAssertTrue(try SignatureCheck.openSSHAccepts(signature, publicBlob: key.publicBlob, message: message, in: keys.directory),
                          "ssh-keygen rejects the \(name) signature (flags \(flags))", file: file, line: line)
        }
        if type == "ssh-rsa" { try assertSHA1Signature(opened, key: key, file: file, line: line) }
        return opened
    }

    /// Flags 0: `ssh-rsa` with SHA-1, a signature as long as the modulus, that OpenSSL verifies.
    private func assertSHA1Signature(_ opened: SSHSigningKey, key: KeyMaker.Key, file: StaticString, line: UInt) throws {
        let data = Random.bytes(count: 100)
        let blob = try opened.sign(data, flags: 0)
        let (name, signature) = try blob.withUnsafeBytes { bytes in
            var reader = SSHWireReader(bytes)
            return (try reader.readName(), try reader.readPublicBytes())
        }
        XCTAssertEqual(name, "ssh-rsa", file: file, line: line)
        let modulus = try key.publicBlob.withUnsafeBytes { bytes in
            var reader = SSHWireReader(bytes)
            _ = try reader.readName()
            _ = try reader.readString()
            return Array(DERReader.magnitude(try reader.readString()))
        }
        XCTAssertEqual(signature.count, modulus.count, "an RSA signature is as long as its modulus", file: file, line: line)
        let publicKeyFile = key.path + ".pub-line"
        try Data(("ssh-rsa " + Base64.encode(key.publicBlob) + "\n").utf8).write(to: URL(fileURLWithPath: publicKeyFile))
        XCTAssertTrue(try SignatureCheck.openSSLAcceptsSHA1(signature, data: data, publicKeyFile: publicKeyFile, in: keys.directory),
                      "OpenSSL rejects the SHA-1 ssh-rsa signature", file: file, line: line)
    }
}
