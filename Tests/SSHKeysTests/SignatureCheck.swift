import Foundation
import KeyFormats
import Sodium

/// Checks signatures with OpenSSH itself: a signature blob made over SSHSIG's signed data
/// (openssh-portable `PROTOCOL.sshsig`) is wrapped into an armoured SSH signature and given to
/// `ssh-keygen -Y check-novalidate`, which accepts it only if the key signed that message.
/// For SHA-1 `ssh-rsa`, which SSHSIG does not allow, OpenSSL's `openssl dgst -verify` checks
/// the raw signature with the public key exported by `ssh-keygen -e`.
enum SignatureCheck {
    static let namespace = "credvault-test@example"

    /// What an SSHSIG signature over `message` signs: "SSHSIG", string namespace, string
    /// reserved, string hash algorithm, string SHA-512(message).
    static func signedData(for message: [UInt8]) -> [UInt8] {
        var fields = SSHWireWriter()
        fields.string(namespace)
        fields.string([UInt8]())
        fields.string("sha512")
        fields.string(sha512(message))
        return Array("SSHSIG".utf8) + fields.bytes
    }

    /// Whether `ssh-keygen -Y check-novalidate` accepts `signature` (a key's signature blob over
    /// `signedData(for: message)`) by the key of `publicBlob`.
    static func openSSHAccepts(_ signature: [UInt8], publicBlob: [UInt8], message: [UInt8], in directory: String) throws -> Bool {
        var blob = Array("SSHSIG".utf8)
        var fields = SSHWireWriter()
        fields.uint32(1)
        fields.string(publicBlob)
        fields.string(namespace)
        fields.string([UInt8]())
        fields.string("sha512")
        fields.string(signature)
        blob += fields.bytes
        let base64 = Array(Base64.encode(blob))
        let lines = stride(from: 0, to: base64.count, by: 76).map { String(base64[$0..<min($0 + 76, base64.count)]) }
        let armoured = "-----BEGIN SSH SIGNATURE-----\n" + lines.joined(separator: "\n") + "\n-----END SSH SIGNATURE-----\n"
        let name = "\(directory)/check-\(UUID().uuidString)"
        try Data(armoured.utf8).write(to: URL(fileURLWithPath: name + ".sig"))
        try Data(message).write(to: URL(fileURLWithPath: name + ".msg"))
        defer { for suffix in [".sig", ".msg"] { try? FileManager.default.removeItem(atPath: name + suffix) } }
        return try KeyMaker.exitStatus("/usr/bin/ssh-keygen", ["-Y", "check-novalidate", "-n", namespace, "-s", name + ".sig"],
                                       input: name + ".msg") == 0
    }

    /// Whether OpenSSL verifies the raw RSA signature `signature` over `data` with SHA-1 under
    /// the public key in `publicKeyFile` (an OpenSSH `.pub`).
    static func openSSLAcceptsSHA1(_ signature: [UInt8], data: [UInt8], publicKeyFile: String, in directory: String) throws -> Bool {
        let name = "\(directory)/rsa-\(UUID().uuidString)"
        defer { for suffix in [".pem", ".sig", ".data"] { try? FileManager.default.removeItem(atPath: name + suffix) } }
        let export = Process()
        export.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        export.arguments = ["-e", "-m", "PKCS8", "-f", publicKeyFile]
        let pipe = Pipe()
        export.standardOutput = pipe
        try export.run()
        let pem = pipe.fileHandleForReading.readDataToEndOfFile()
        export.waitUntilExit()
        try pem.write(to: URL(fileURLWithPath: name + ".pem"))
        try Data(signature).write(to: URL(fileURLWithPath: name + ".sig"))
        try Data(data).write(to: URL(fileURLWithPath: name + ".data"))
        return try KeyMaker.exitStatus("/usr/bin/openssl", ["dgst", "-sha1", "-verify", name + ".pem", "-signature", name + ".sig", name + ".data"]) == 0
    }

    static func sha512(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: SHA512.digestCount)
        bytes.withUnsafeBytes { input in digest.withUnsafeMutableBytes { SHA512.hash(input, into: $0) } }
        return digest
    }
}
