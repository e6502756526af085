import Foundation
import XCTest

/// `init` is two steps too (secrets database, then config database).
final class CrashDuringInitTests: CredctlTestCase {
    func testInitKilledBetweenTheDatabasesCanSimplyBeRunAgain() throws {
        let killed = try credctl.run(["init"], extraEnvironment: ["CREDVAULT_FAILPOINT": "init.after-secrets"])
        XCTAssertTrue(killed.signaled)
        XCTAssertTrue(FileManager.default.fileExists(atPath: vaultPath + "/secrets.sqlite"))
        assertStatus(try credctl.run("status"), 66)
        try initVault()
        assertStatus(try credctl.run("status"), 0)
    }

    func testInitKilledBeforeEitherDatabaseWasFinishedCanSimplyBeRunAgain() throws {
        // What a kill inside the very first transactions leaves: files whose identity never committed.
        try FileManager.default.createDirectory(atPath: vaultPath, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for leftovers in [["secrets.sqlite"], ["secrets.sqlite", "config.sqlite"], ["config.sqlite"]] {
            for name in leftovers { XCTAssertTrue(FileManager.default.createFile(atPath: vaultPath + "/" + name, contents: Data(), attributes: [.posixPermissions: 0o600])) }
            try initVault()
            assertStatus(try credctl.run("status"), 0)
            for name in try FileManager.default.contentsOfDirectory(atPath: vaultPath) { try FileManager.default.removeItem(atPath: vaultPath + "/" + name) }
        }
    }

    func testASecretsDatabaseWithItemsIsNeverDiscarded() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "h.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: vaultPath + "/config.sqlite" + suffix) }
        let again = try credctl.run("init")
        assertStatus(again, 65)
        XCTAssertTrue(again.stderr.contains("already holds a vault"), again.stderr)
    }
}
