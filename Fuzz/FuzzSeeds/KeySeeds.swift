import Foundation
import FuzzSupport
import Sodium

/// Seeds for the key harnesses: keys made by ssh-keygen in every format import reads, as
/// whole files, files with their `.pub`, and the binary inside the armour.
enum KeySeeds {
    /// ssh-keygen arguments: type, size, format (`-m`), passphrase.
    private static let kinds: [(type: String, bits: String?, format: String?, passphrase: String)] = [
        ("ed25519", nil, nil, ""), ("ed25519", nil, nil, "secret"), ("ecdsa", "256", nil, ""), ("ecdsa", "384", "PEM", ""),
        ("ecdsa", "521", "PKCS8", ""), ("rsa", "1024", nil, ""), ("rsa", "1024", "PEM", ""), ("rsa", "1024", "PEM", "secret"),
        ("rsa", "1024", "PKCS8", ""), ("rsa", "1024", "PKCS8", "secret"), ("dsa", nil, "PEM", ""),
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
