import Foundation
import XCTest

/// `credctl unlock` once, then every command that reads a secret gets it from the agent without
/// a key or a prompt; `lock`, the idle time and the maximum each make them ask again.
final class AgentUnlockTests: AgentTestCase {
    /// Each reader of the password, and what it printed: the secret, or its status when refused.
    private func readers() throws -> [(String, CredctlRunner.Result)] {
        let template = directory + "/template"
        try "pw={{ cred://host/db/password }}".write(toFile: template, atomically: true, encoding: .utf8)
        return [
            ("read", try credctl.run("read", "cred://host/db/password")),
            ("resolve", try credctl.run("resolve", "db", "--reveal", "--json")),
            ("run", try credctl.run("run", "--env", "PW=cred://host/db/password", "--", "sh", "-c", "printf %s \"$PW\"")),
            ("inject", try credctl.run("inject", "-i", template)),
        ]
    }

    func testOneUnlockServesEveryReaderAndLockMakesThemAskAgain() throws {
        for (name, result) in try readers() { XCTAssertEqual(result.status, 77, "\(name) is locked before any unlock") }
        XCTAssertEqual(try agentState(), "not-running")
        try unlock()
        XCTAssertEqual(try agentState(), "unlocked")
        for (name, result) in try readers() {
            assertStatus(result, 0)
            XCTAssertTrue(result.output.contains("s3cret"), "\(name): \(result.output)")
        }
        XCTAssertTrue(try credctl.run("status").output.contains("Agent:       unlocked"))
        assertStatus(try credctl.run("lock"), 0)
        XCTAssertEqual(try agentState(), "locked")
        for (name, result) in try readers() {
            XCTAssertEqual(result.status, 77, "\(name) asks again after lock: \(result.stderr)")
            XCTAssertFalse(result.output.contains("s3cret"))
        }
        // A key given still works as ever, agent or not.
        XCTAssertEqual(try credctl.run("--passphrase-file", passphraseFile, "read", "cred://host/db/password").output, "s3cret")
    }

    func testTheIdleTimeAndTheMaximumLockIt() throws {
        try unlock("--idle-timeout", "2")
        assertStatus(try credctl.run("read", "cred://host/db/password"), 0)
        try waitForState("locked")
        assertStatus(try credctl.run("read", "cred://host/db/password"), 77)

        // Used every half second, it still locks at the maximum.
        try unlock("--idle-timeout", "2", "--max-time", "4")
        var served = 0
        for _ in 0..<30 where try agentState() == "unlocked" {
            if try credctl.run("read", "cred://host/db/password").status == 0 { served += 1 }
            usleep(500_000)
        }
        XCTAssertGreaterThan(served, 0)
        try waitForState("locked")
        XCTAssertEqual(try credctl.run("read", "cred://host/db/password").status, 77)
        assertStatus(try credctl.run("unlock", "--idle-timeout", "100", "--max-time", "50"), 64)
    }

    func testAWrongPassphraseLeavesTheAgentLocked() throws {
        let wrong = directory + "/wrong"
        XCTAssertTrue(FileManager.default.createFile(atPath: wrong, contents: Data("wrong horse".utf8), attributes: [.posixPermissions: 0o600]))
        let refused = try credctl.run("--passphrase-file", wrong, "unlock")
        assertStatus(refused, 77)
        XCTAssertEqual(try agentState(), "locked")
        assertStatus(try credctl.run("read", "cred://host/db/password"), 77)
    }

    func testAnUnlockedAgentSealsNewSecretsSoWritingNeedsNoKeyEither() throws {
        try unlock()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "w.example", "--password-stdin"], input: Array("new-pw".utf8)), 0)
        assertStatus(try credctl.run(["host", "edit", "db", "--password-stdin"], input: Array("changed".utf8)), 0)
        let key = try makeKey(at: directory + "/id", passphrase: "key pass")
        assertStatus(try credctl.run(["identity", "add", "laptop", "--private-key", key, "--passphrase-stdin"], input: Array("key pass".utf8)), 0)
        for (reference, expected) in [("cred://host/web/password", "new-pw"), ("cred://host/db/password", "changed"),
                                      ("cred://identity/laptop/passphrase", "key pass")] {
            XCTAssertEqual(try credctl.run("read", reference).output, expected)
        }
        assertStatus(try credctl.run("lock"), 0)
        assertStatus(try credctl.run(["host", "add", "other", "--hostname", "o.example", "--password-stdin"], input: Array("x".utf8)), 77)
        assertStatus(try credctl.run("host", "show", "other"), 66)
        XCTAssertEqual(try credctl.run("--passphrase-file", passphraseFile, "read", "cred://host/web/password").output, "new-pw", "sealed by the agent, opened here")
    }

    func testAVaultNamedByARelativePathIsServedByTheAgentItStarts() throws {
        var environment = credctl.environment
        environment["CREDCTL_VAULT"] = nil
        let script = "cd \"$1\" && \"$2\" --vault vault --passphrase-file passphrase unlock >/dev/null && \"$2\" --vault ./vault read cred://host/db/password"
        let result = try runApart(["/bin/bash", "-c", script, "bash", directory, CredctlRunner.binary], environment: environment)
        assertStatus(result, 0)
        XCTAssertEqual(result.output, "s3cret")
    }
}
