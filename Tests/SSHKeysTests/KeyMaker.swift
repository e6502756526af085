import Foundation
import Sodium
import XCTest

/// Keys made by the system's ssh-keygen, each type and size generated once per test run (RSA
/// and DSA generation is the slow part) and then copied, re-encrypted and converted with
/// `ssh-keygen -p`, as a user would. The directory is removed when the test process exits.
final class KeyMaker: @unchecked Sendable {
    // `@unchecked Sendable`: the cache is guarded by `lock`.

    /// A key file's bytes as `credctl identity add` stores them, and its recorded public blob.
    struct Key {
        let path: String
        let body: SecretBytes
        let publicBlob: [UInt8]
    }

    static let shared = KeyMaker()
    /// The passphrase of every encrypted test key: a test value, given to ssh-keygen with -N and
    /// never printed (ssh-keygen wants at least five characters for PEM).
    static let passphrase = "test passphrase 1"

    let directory: String
    private var originals: [String: String] = [:]
    private var copies = 0
    private let lock = NSLock()

    private init() {
        directory = NSTemporaryDirectory() + "sshkeys-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: KeyMaker.shared.directory) }
    }

    /// A key of `type` (ed25519, rsa, ecdsa, dsa) and `bits`, written as `format` (nil for
    /// OpenSSH's own, "PEM", "PKCS8"), encrypted with `passphrase` if it is not empty, with
    /// `cipher` (nil: ssh-keygen's default, aes256-ctr) and `rounds` (nil: 16). Keys of the
    /// same type and size are copies of one key, unless their `instance` differs.
    func key(_ type: String, bits: Int? = nil, format: String? = nil, passphrase: String = "", cipher: String? = nil,
             rounds: Int? = nil, instance: Int = 0) throws -> Key {
        let original = try self.original(type, bits: bits, instance: instance)
        let path = lock.withLock { () -> String in
            copies += 1
            return "\(directory)/copy-\(copies)"
        }
        try FileManager.default.copyItem(atPath: original, toPath: path)
        if format != nil || !passphrase.isEmpty {
            var arguments = ["-q", "-p", "-f", path, "-P", "", "-N", passphrase]
            if let format { arguments += ["-m", format] }
            if let cipher { arguments += ["-Z", cipher] }
            if let rounds { arguments += ["-a", String(rounds)] }
            try Self.run("/usr/bin/ssh-keygen", arguments)
        }
        return try load(path, publicKeyFile: original + ".pub")
    }

    /// The file at `path` with the public blob of the `TYPE BASE64` line in `publicKeyFile`.
    func load(_ path: String, publicKeyFile: String) throws -> Key {
        let line = try String(contentsOfFile: publicKeyFile, encoding: .utf8)
        let fields = line.split(separator: " ")
        guard fields.count >= 2, let blob = Base64.decode(String(fields[1])) else { throw CocoaError(.fileReadCorruptFile) }
        return try file(path, publicBlob: blob)
    }

    /// The file at `path`, recorded with `publicBlob`.
    func file(_ path: String, publicBlob: [UInt8]) throws -> Key {
        Key(path: path, body: try SecretBytes(copying: Array(try Data(contentsOf: URL(fileURLWithPath: path)))), publicBlob: publicBlob)
    }

    /// The generated, unencrypted key of `type` and `bits`; `.pub` beside it.
    private func original(_ type: String, bits: Int?, instance: Int) throws -> String {
        let name = "\(type)-\(bits.map(String.init) ?? "default")-\(instance)"
        return try lock.withLock {
            if let path = originals[name] { return path }
            let path = "\(directory)/\(name)"
            var arguments = ["-q", "-t", type, "-N", "", "-C", "test@example", "-f", path]
            if let bits { arguments += ["-b", String(bits)] }
            try Self.run("/usr/bin/ssh-keygen", arguments)
            originals[name] = path
            return path
        }
    }

    /// Runs a tool and throws unless it exits 0.
    static func run(_ tool: String, _ arguments: [String]) throws {
        let status = try exitStatus(tool, arguments)
        guard status == 0 else {
            throw NSError(domain: "KeyMaker", code: Int(status), userInfo: [NSLocalizedDescriptionKey: "\(tool) exited \(status)"])
        }
    }

    /// Runs a tool with the file at `input` (or nothing) on its standard input and returns its
    /// exit status. Its output is discarded, so no passphrase on its command line is shown.
    static func exitStatus(_ tool: String, _ arguments: [String], input: String? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = input.flatMap { FileHandle(forReadingAtPath: $0) } ?? FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
