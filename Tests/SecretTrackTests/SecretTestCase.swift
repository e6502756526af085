import Foundation
import SQLite
import Sodium
import XCTest
@testable import SecretTrack

/// Base class for secret-store suites: each test gets a fresh private directory (mkdtemp),
/// removed again in `tearDown`. Passphrase slots use the cheapest Argon2id settings.
class SecretTestCase: XCTestCase {
    static let storeID = "5b0c4a2e-9d3f-4c1b-8e7a-6f5d4c3b2a19"
    static let deviceID = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"

    private(set) var directory = ""
    var databasePath: String { directory + "/secrets.sqlite" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        var template = Array((NSTemporaryDirectory() + "/secret-tests.XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "mkdtemp failed (errno \(errno))"])
        }
        directory = String(cString: created)
    }

    override func tearDownWithError() throws {
        if !directory.isEmpty { try FileManager.default.removeItem(atPath: directory) }
        directory = ""
        try super.tearDownWithError()
    }

    // MARK: - Fixtures

    static func passphrase(_ text: String = "correct horse battery staple") throws -> KeyProvider {
        .passphrase(try SecretBytes(utf8: text))
    }

    /// A new store at `databasePath`, unlocked with `provider` (a passphrase by default).
    func makeStore(_ provider: KeyProvider? = nil) throws -> SecretStore {
        try SecretStore.create(at: databasePath, storeID: Self.storeID, deviceID: Self.deviceID,
                               provider: try provider ?? Self.passphrase(), kdf: .insecureForTesting())
    }

    /// A reference key of the shape the config track uses.
    static func reference(_ field: String = "password") -> String {
        (field == "password" ? "host." : "identity.") + UUID().uuidString.lowercased() + "." + field
    }

    static func secret(_ bytes: [UInt8]) throws -> SecretBytes { try SecretBytes(copying: bytes) }

    /// A second, raw connection to the store's file, for inspecting and tampering.
    func rawConnection() throws -> Connection { try Connection(path: databasePath) }

    /// Whether the file at `path` contains `needle` anywhere (false if there is no such file).
    func file(_ path: String, contains needle: [UInt8]) -> Bool {
        guard let data = FileManager.default.contents(atPath: path), !needle.isEmpty else { return false }
        return Data(data).range(of: Data(needle)) != nil
    }

    /// Permission bits of the file at `path`, or nil if it does not exist.
    func permissions(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }
}

/// Asserts that `expression` throws a `SecretError` with exactly `code`, and returns the error.
@discardableResult
func assertSecretError<T>(_ code: SecretError.Code, _ expression: @autoclosure () throws -> T, _ message: String = "",
                          file: StaticString = #filePath, line: UInt = #line) -> SecretError? {
    var caught: SecretError?
    XCTAssertThrowsError(try expression(), message, file: file, line: line) { error in
        caught = error as? SecretError
        XCTAssertEqual(caught?.code, code, "\(message) — got \(error)", file: file, line: line)
    }
    return caught
}

/// Lower-case hex of public bytes.
func hexString(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
}
