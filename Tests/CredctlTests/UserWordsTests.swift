import Foundation
import XCTest

/// Errors speak of what the user named — a host and how it authenticates, not a reference key —
/// and say a failed system call in words, never as a bare errno.
final class UserWordsTests: CredctlTestCase {
    func testAMissingPasswordIsSaidOfTheHostAndSystemErrorsInWords() throws {
        try initVault()
        let key = try makeKey(at: directory + "/id")
        assertStatus(try credctl.run("identity", "add", "laptop", "--private-key", key), 0)
        assertStatus(try credctl.run("host", "add", "db", "--hostname", "db.example", "--identity", "laptop"), 0)
        let read = try credctl.run("read", "cred://host/db/password")
        assertStatus(read, 66)
        XCTAssertTrue(read.stderr.contains("Host 'db' has no password: it uses the identity 'laptop'"), read.stderr)
        XCTAssertFalse(read.stderr.contains("host."), "no reference key: \(read.stderr)")
        let passphrase = try credctl.run("read", "cred://identity/laptop/passphrase")
        assertStatus(passphrase, 66)
        XCTAssertTrue(passphrase.stderr.contains("Identity 'laptop' has no passphrase stored"), passphrase.stderr)

        var elsewhere = credctl!
        elsewhere.environment["CREDCTL_VAULT"] = keyFile + "/vault"
        let notADirectory = try elsewhere.run("init")
        assertStatus(notADirectory, 1)
        XCTAssertTrue(notADirectory.stderr.contains(": not a directory"), notADirectory.stderr)
        XCTAssertFalse(notADirectory.stderr.contains("errno"), notADirectory.stderr)
        let missing = try credctl.run("--passphrase-file", directory + "/missing", "host", "list")
        XCTAssertFalse(missing.stderr.contains("errno"), missing.stderr)
    }
}
