import Foundation
import FuzzSupport
import KeyFormats
import Sodium

/// Seeds for the key harnesses: keys made by ssh-keygen in every format import reads, as
/// whole files, files with their `.pub`, and the binary inside the armour; and for
/// FuzzSSHKeyOpen, keys of every type and encryption with their passphrase and public blob.
enum KeySeeds {
    /// ssh-keygen arguments: type, size, format (`-m`), passphrase.
    private static let kinds: [(type: String, bits: String?, format: String?, passphrase: String)] = [
        ("ed25519", nil, nil, ""), ("ed25519", nil, nil, "secret"), ("ecdsa", "256", nil, ""), ("ecdsa", "384", "PEM", ""),
        ("ecdsa", "521", "PKCS8", ""), ("rsa", "1024", nil, ""), ("rsa", "1024", "PEM", ""), ("rsa", "1024", "PEM", "secret"),
        ("rsa", "1024", "PKCS8", ""), ("rsa", "1024", "PKCS8", "secret"), ("dsa", nil, "PEM", ""),
    ]
    /// FuzzSSHKeyOpen's keys: type, size, format, passphrase, cipher. OpenSSH encryption uses one
    /// bcrypt round, which the harness opens (it skips costlier files).
    private static let signingKinds: [(type: String, bits: String?, format: String?, passphrase: String, cipher: String?)] = [
        ("ed25519", nil, nil, "", nil), ("ed25519", nil, nil, "secret", nil), ("ed25519", nil, nil, "secret", "chacha20-poly1305@openssh.com"),
        ("ecdsa", "256", nil, "secret", "aes256-gcm@openssh.com"), ("ecdsa", "384", "PEM", "", nil), ("rsa", "1024", nil, "", nil),
        ("rsa", "1024", "PEM", "secret", nil), ("rsa", "1024", "PKCS8", "secret", nil), ("dsa", nil, nil, "secret", "aes128-cbc"),
    ]
    /// The labels in FuzzPrivateKey's order.
    private static let labels = ["OPENSSH PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY", "PRIVATE KEY", "ENCRYPTED PRIVATE KEY"]

    static func write(_ seeds: SeedWriter) throws {
        let directory = NSTemporaryDirectory() + "credvault-key-seeds-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (index, kind) in kinds.enumerated() {
            let path = "\(directory)/key\(index)"
            var arguments = ["-q", "-t", kind.type, "-N", kind.passphrase, "-C", "fuzz@example", "-f", path]
            if let bits = kind.bits { arguments += ["-b", bits] }
            if let format = kind.format { arguments += ["-m", format] }
            guard sshKeygen(arguments) else { continue }  // a type this ssh-keygen no longer makes
            let file = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let publicLine = try String(contentsOfFile: path + ".pub", encoding: .utf8)
            seeds.write("FuzzPrivateKey") { $0.byte(0); $0.append(file) }
            seeds.write("FuzzPrivateKey") { $0.byte(1); $0.text(publicLine); $0.append(file) }
            let fields = publicLine.split(separator: " ")
            guard fields.count >= 2, let blob = Base64.decode(String(fields[1])), let (label, encrypted, body) = unarmoured(file),
                  let labelIndex = labels.firstIndex(of: label) else { continue }
            seeds.write("FuzzPrivateKey") { $0.byte(2); $0.byte(UInt8(labelIndex) | (encrypted ? 0x80 : 0)); $0.field(blob); $0.append(body) }
            seeds.write("FuzzPublicKeyLine") { $0.byte(0); $0.append(Array(publicLine.utf8)) }
            seeds.write("FuzzPublicKeyLine") { $0.byte(1); $0.text("fuzz@example"); $0.append(blob) }
        }
        for (index, kind) in signingKinds.enumerated() {
            let path = "\(directory)/signing\(index)"
            var arguments = ["-q", "-t", kind.type, "-N", kind.passphrase, "-C", "fuzz@example", "-f", path, "-a", "1"]
            if let bits = kind.bits { arguments += ["-b", bits] }
            if let format = kind.format { arguments += ["-m", format] }
            if let cipher = kind.cipher { arguments += ["-Z", cipher] }
            guard sshKeygen(arguments) else { continue }
            let file = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let fields = try String(contentsOfFile: path + ".pub", encoding: .utf8).split(separator: " ")
            guard fields.count >= 2, let blob = Base64.decode(String(fields[1])) else { continue }
            let passphrase = Array(kind.passphrase.utf8)
            seeds.write("FuzzSSHKeyOpen") { $0.byte(0); $0.field(passphrase); $0.field(blob); $0.append(file) }
            guard let (label, _, body) = unarmoured(file), let labelIndex = PEMArmor.privateKeyLabels.sorted().firstIndex(of: label) else { continue }
            seeds.write("FuzzSSHKeyOpen") { $0.byte(1); $0.field(passphrase); $0.field([]); $0.byte(UInt8(labelIndex)); $0.append(body) }
        }
    }

    private static func sshKeygen(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// The label, whether a `Proc-Type: 4,ENCRYPTED` header is present, and the decoded body.
    private static func unarmoured(_ file: [UInt8]) -> (String, Bool, [UInt8])? {
        let lines = String(decoding: file, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = lines.first, first.hasPrefix("-----BEGIN "), first.hasSuffix("-----") else { return nil }
        let label = String(first.dropFirst("-----BEGIN ".count).dropLast(5))
        let encrypted = lines.contains { $0.hasPrefix("Proc-Type:") && $0.hasSuffix("ENCRYPTED") }
        let body = lines.dropFirst().filter { !$0.hasPrefix("-----") && !$0.contains(":") && !$0.isEmpty }.joined()
        return Base64.decode(body).map { (label, encrypted, $0) }
    }
}
