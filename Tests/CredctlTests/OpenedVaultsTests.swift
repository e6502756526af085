@testable import CredctlKit
import CredentialVault
import SQLite
import XCTest

/// After each command the CLI checks for an unsent edit to tell the agent about; a command that
/// let go of its vault has it opened again only when its files changed. So a command that only
/// reads must leave them exactly as they were, or every read pays for a second open.
final class OpenedVaultsTests: CredctlTestCase {
    private func stamps() -> [FileStamp] {
        let directory = VaultDirectory(path: vaultPath)
        return [directory.configPath, directory.configPath + "-wal", directory.secretsPath, directory.secretsPath + "-wal"].map(FileStamp.init)
    }

    func testReadsLeaveTheVaultFilesAsTheyWereAndAnEditChangesThem() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "db", "--hostname", "db.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        let before = stamps()
        assertStatus(try credctl.run("read", "cred://host/db/password"), 0)
        assertStatus(try credctl.run("host", "list"), 0)
        assertStatus(try credctl.run("resolve", "db"), 0)
        XCTAssertEqual(stamps(), before, "a read wrote to the vault")
        assertStatus(try credctl.run("host", "edit", "db", "--port", "2222"), 0)
        XCTAssertNotEqual(stamps(), before, "an edit changes the files the check looks at")
    }

    /// Commands that only read (`read`, `resolve`, the listings, `show`s and the completion
    /// lister) open the vault read-only (docs/startup.md): not even the WAL indexes, which the
    /// first connection to open a database to write truncates and rebuilds, change.
    func testReadingCommandsChangeNoFileOfALocalVault() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "db", "--hostname", "db.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: vaultPath).sorted().map { vaultPath + "/" + $0 }
        XCTAssertTrue(files.contains { $0.hasSuffix("config.sqlite-shm") } && files.contains { $0.hasSuffix("secrets.sqlite-shm") }, "\(files)")
        func contentTimes() -> [Int] {
            files.map { file in
                var info = stat()
                return stat(file, &info) == 0 ? info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec : -1
            }
        }
        let before = contentTimes()
        usleep(20_000)
        let read = try credctl.run("read", "cred://host/db/password")
        assertStatus(read, 0)
        XCTAssertEqual(read.stdout, Array("pw".utf8))
        for command in [["resolve", "db"], ["__complete", "hosts"], ["host", "list"], ["host", "show", "db"], ["identity", "list"],
                        ["group", "list"], ["forward", "list", "db"], ["export", "ssh-config"]] {
            assertStatus(try credctl.run(command), 0)
        }
        XCTAssertEqual(contentTimes(), before, "a reading command changed a file of the vault")
        assertStatus(try credctl.run("status"), 0)
        XCTAssertNotEqual(contentTimes(), before, "a command that opens the vault to write rebuilds its indexes: the check above could not fail")
    }

    /// The check before and after each command finds the newest unsent edit by index in both
    /// tracks (`Journal.clockIndexMigration`), however many edits wait.
    func testBothTracksFindTheNewestUnsentEditByIndex() throws {
        try initVault()
        let directory = VaultDirectory(path: vaultPath)
        for path in [directory.configPath, directory.secretsPath] {
            let db = try Connection(path: path)
            let plan = try db.query("EXPLAIN QUERY PLAN SELECT max(version_clock) FROM replication_journal") { $0.text(3) ?? "" }.joined()
            XCTAssertTrue(plan.contains("INDEX replication_journal_clock"), "\(path): \(plan)")
        }
    }
}
