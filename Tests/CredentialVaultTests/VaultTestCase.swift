import Foundation
import SQLite
import XCTest
@testable import CredentialVault

/// Base class: a fresh temporary directory per test, and helpers to make vaults and to reach
/// around the facade into the raw databases (to simulate tampering and partial arrival).
class VaultTestCase: XCTestCase {
    var directory = ""
    var vaultPath: String { directory + "/vault" }
    var keyFilePath: String { directory + "/vault.key" }

    override func setUpWithError() throws {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("credvault-test-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw XCTSkip("mkdtemp failed") }
        directory = String(cString: made)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A new vault unlocked by a fresh key file, with cheap key derivation.
    func makeVault() throws -> Vault {
        try Vault.create(at: vaultPath, key: .keyFile(path: keyFilePath), kdf: .insecureForTesting())
    }

    /// The same vault opened again, locked.
    func reopen() throws -> Vault { try Vault.open(at: vaultPath) }

    func secret(_ text: String) throws -> SecretBytes { try SecretBytes(utf8: text) }

    func bytes(of secret: SecretBytes) -> [UInt8] { secret.withUnsafeBytes { Array($0) } }

    /// Runs raw SQL against one of the vault's databases, behind the facade's back.
    func rawSQL(_ database: String, _ sql: String, _ arguments: [SQLBindable] = []) throws {
        let connection = try Connection(path: vaultPath + "/" + database)
        try connection.run(sql, arguments)
    }

    func rawBlob(_ database: String, _ sql: String, _ arguments: [SQLBindable] = []) throws -> [UInt8]? {
        try Connection(path: vaultPath + "/" + database).queryFirst(sql, arguments) { $0.blob(0) } ?? nil
    }

    /// Asserts `body` throws a `VaultError` with `code`; returns it for further checks.
    @discardableResult
    func assertVaultError<T>(_ code: VaultError.Code, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T) -> VaultError? {
        do {
            _ = try body()
            XCTFail("expected VaultError.\(code), but it succeeded", file: file, line: line)
        } catch let error as VaultError {
            XCTAssertEqual(error.code, code, "message: \(error.message)", file: file, line: line)
            return error
        } catch {
            XCTFail("expected VaultError.\(code), got \(error)", file: file, line: line)
        }
        return nil
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0, "stat \(path)")
        return info.st_mode & 0o777
    }
}
