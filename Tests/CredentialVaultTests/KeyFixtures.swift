import Foundation
import Sodium
import XCTest

/// Test helpers: run `ssh-keygen`, build `openssh-key-v1` files by hand, read files back.
enum KeyFixtures {
    /// Runs `ssh-keygen` with `arguments` and fails the test if it does not exit 0.
    static func sshKeygen(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "ssh-keygen \(arguments.joined(separator: " "))", file: file, line: line)
    }

    /// Generates a key at `path`; `passphrase` empty means unencrypted; `format` is `-m`'s value.
    static func generate(_ path: String, type: String, bits: Int? = nil, passphrase: String = "",
                         format: String? = nil, comment: String = "test@example") throws {
        var arguments = ["-q", "-t", type, "-N", passphrase, "-C", comment, "-f", path]
        if let bits { arguments += ["-b", String(bits)] }
        if let format { arguments += ["-m", format] }
        try sshKeygen(arguments)
    }

    /// Rewrites the key at `path` in `format`, with a new passphrase (the old one must be empty).
    static func convert(_ path: String, format: String, passphrase: String = "") throws {
        try sshKeygen(["-q", "-p", "-f", path, "-P", "", "-N", passphrase, "-m", format])
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
    static func write(_ bytes: [UInt8], to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
    static func write(_ text: String, to path: String) throws { try write(Array(text.utf8), to: path) }

    /// The first two fields (`TYPE BASE64`) of a public key line.
    static func typeAndKey(_ line: String) -> String {
        line.split(separator: " ", omittingEmptySubsequences: true).prefix(2).joined(separator: " ")
    }

    // MARK: openssh-key-v1 by hand

    static func uint32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func string(_ bytes: [UInt8]) -> [UInt8] { uint32(bytes.count) + bytes }
    static func string(_ text: String) -> [UInt8] { string(Array(text.utf8)) }

    /// A public blob for an Ed25519-shaped key of type `type`.
    static func publicBlob(type: String = "ssh-ed25519", key: [UInt8]) -> [UInt8] { string(type) + string(key) }

    /// An unencrypted private section for an Ed25519-shaped key, padded to 8 bytes.
    static func privateSection(type: String = "ssh-ed25519", key: [UInt8], comment: String,
                               checks: (Int, Int) = (0x1234_5678, 0x1234_5678)) -> [UInt8] {
        var section = uint32(checks.0) + uint32(checks.1) + string(type) + string(key)
        section += string([UInt8](repeating: 7, count: 32) + key) + string(comment)
        var pad: UInt8 = 1
        while section.count % 8 != 0 { section.append(pad); pad += 1 }
        return section
    }

    /// The decoded body of an `openssh-key-v1` file.
    static func openSSHBlob(cipher: String = "none", kdf: String = "none", kdfOptions: [UInt8] = [],
                            publicBlobs: [[UInt8]], privateSection: [UInt8]) -> [UInt8] {
        var blob = Array("openssh-key-v1\0".utf8) + string(cipher) + string(kdf) + string(kdfOptions)
        blob += uint32(publicBlobs.count) + publicBlobs.flatMap { string($0) }
        return blob + string(privateSection)
    }

    /// `bytes` armored as `label`, wrapped at 70 columns like ssh-keygen.
    static func armor(_ bytes: [UInt8], label: String = "OPENSSH PRIVATE KEY") -> String {
        let encoded = Array(Base64.encode(bytes))
        let lines = stride(from: 0, to: encoded.count, by: 70).map { String(encoded[$0..<min($0 + 70, encoded.count)]) }
        return "-----BEGIN \(label)-----\n" + lines.joined(separator: "\n") + "\n-----END \(label)-----\n"
    }

    /// A small deterministic generator (SplitMix64), so a failing fuzz case can be replayed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
