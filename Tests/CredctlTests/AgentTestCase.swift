import Foundation
import XCTest

/// A passphrase vault with a password host, a runtime directory of its own, and no key named
/// anywhere: what a command can open without a prompt, it got from the agent. Every agent a test
/// started is stopped at its end.
class AgentTestCase: CredctlTestCase {
    var passphraseFile: String { directory + "/passphrase" }
    var runtime: String { directory + "/run" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        XCTAssertTrue(FileManager.default.createFile(atPath: passphraseFile, contents: Data("correct horse".utf8), attributes: [.posixPermissions: 0o600]))
        credctl.environment["CREDCTL_KEY_FILE"] = nil
        credctl.environment["XDG_RUNTIME_DIR"] = runtime
        assertStatus(try credctl.run("--passphrase-file", passphraseFile, "init"), 0)
        assertStatus(try credctl.run(["--passphrase-file", passphraseFile, "host", "add", "db", "--hostname", "db.example", "--password-stdin"],
                                     input: Array("s3cret".utf8)), 0)
    }

    override func tearDownWithError() throws {
        if let pid = agentPID() { kill(pid, SIGTERM) }
        try super.tearDownWithError()
    }

    /// The running agent's pid, as status says it.
    func agentPID() -> pid_t? {
        guard let result = try? credctl.run("status", "--json"),
              let status = try? JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any],
              let agent = status["agent"] as? [String: Any] else { return nil }
        return (agent["pid"] as? Int).map { pid_t($0) }
    }

    func agentState() throws -> String {
        let status = try JSONSerialization.jsonObject(with: Data(try credctl.run("status", "--json").stdout)) as? [String: Any]
        return (status?["agent"] as? [String: Any])?["state"] as? String ?? "?"
    }

    func unlock(_ extra: String...) throws {
        let result = try credctl.run(["--passphrase-file", passphraseFile, "unlock"] + extra)
        assertStatus(result, 0)
    }

    /// Waits (at most 10 s) until the agent says `state`.
    func waitForState(_ state: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for _ in 0..<100 {
            if try agentState() == state { return }
            usleep(100_000)
        }
        XCTFail("the agent never became \(state)", file: file, line: line)
    }
}
