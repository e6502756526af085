import Foundation
import struct Identifiers.UUID

/// The private numbers of an SSH private key — what a leak would really give away, unlike the
/// armoured file's first lines, which hold only its header and public key. An encrypted key or
/// a PEM one is first converted (decrypted) by `ssh-keygen -p` on a copy, into the OpenSSH
/// format, which is then read here.
public enum PrivateKeyBytes {
    /// Ed25519: the 32-byte seed; ECDSA: the scalar; RSA: the private exponent and both primes.
    public static func of(keyFile path: String, passphrase: String = "", scratch directory: String) throws -> [[UInt8]] {
        let copy = directory + "/key-copy-\(UUID().uuidString)"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        chmod(copy, 0o600)
        let keygen = Process()
        keygen.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        keygen.arguments = ["-q", "-p", "-P", passphrase, "-N", "", "-f", copy]
        keygen.standardOutput = FileHandle.nullDevice
        keygen.standardError = FileHandle.nullDevice
        try keygen.run()
        keygen.waitUntilExit()
        guard keygen.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
        let text = try String(contentsOfFile: copy, encoding: .utf8)
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let decoded = Data(base64Encoded: body) else { throw CocoaError(.fileReadCorruptFile) }
        return try parse(Array(decoded))
    }

    private static func parse(_ bytes: [UInt8]) throws -> [[UInt8]] {
        var reader = Reader(bytes: bytes)
        guard Array(bytes.prefix(15)) == Array("openssh-key-v1\0".utf8) else { throw CocoaError(.fileReadCorruptFile) }
        reader.offset = 15
        _ = try reader.string(); _ = try reader.string(); _ = try reader.string()  // cipher, kdf, kdf options: none
        _ = try reader.u32()
        _ = try reader.string()  // the public key
        var section = Reader(bytes: try reader.string())
        _ = try section.u32(); _ = try section.u32()
        let type = String(decoding: try section.string(), as: UTF8.self)
        switch type {
        case "ssh-ed25519":
            _ = try section.string()
            return [Array(try section.string().prefix(32))]
        case let ecdsa where ecdsa.hasPrefix("ecdsa-sha2-"):
            _ = try section.string(); _ = try section.string()
            return [trimmed(try section.string())]
        case "ssh-rsa":
            _ = try section.string(); _ = try section.string()
            let d = try section.string()
            _ = try section.string()
            return [trimmed(d), trimmed(try section.string()), trimmed(try section.string())]
        default:
            throw CocoaError(.fileReadUnsupportedScheme)
        }
    }

    /// An mpint without its sign byte.
    private static func trimmed(_ number: [UInt8]) -> [UInt8] { Array(number.drop { $0 == 0 }) }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func u32() throws -> Int {
            guard bytes.count - offset >= 4 else { throw CocoaError(.fileReadCorruptFile) }
            defer { offset += 4 }
            return bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        }

        mutating func string() throws -> [UInt8] {
            let count = try u32()
            guard bytes.count - offset >= count else { throw CocoaError(.fileReadCorruptFile) }
            defer { offset += count }
            return Array(bytes[offset..<(offset + count)])
        }
    }
}
