import Foundation
import XCTest

/// Joining as a person does it on real terminals: the recovery key shown once when the remote is
/// created (and it works when typed back in another form), the verification code the joining
/// device prints and the approving member shows, the question before approving, and the
/// confirmation code typed into the joining device.
final class JoinOnTerminalTests: CredctlTestCase {
    private var remote: String { directory + "/remote" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("no /usr/bin/python3 to drive a terminal") }
    }

    private func device(_ name: String) -> CredctlRunner { CredctlRunner(vault: directory + "/" + name, keyFile: directory + "/" + name + ".key") }

    private func onTerminal(_ runner: CredctlRunner, _ arguments: [String], _ steps: [TerminalSession.Step]) throws -> TerminalSession.Result {
        try TerminalSession.run(arguments, steps: steps, environment: runner.environment, directory: directory)
    }

    /// The first match of `pattern` in `text`.
    private func first(_ pattern: String, in text: String) throws -> String {
        let expression = try NSRegularExpression(pattern: pattern)
        let match = try XCTUnwrap(expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), text)
        return String(text[try XCTUnwrap(Range(match.range, in: text))])
    }

    func testTheRecoveryKeyIsShownOnceAndApprovalAsksOnBothSides() throws {
        let a = device("a"), b = device("b"), c = device("c")
        assertStatus(try a.run("init"), 0)
        assertStatus(try a.run(["host", "add", "web", "--hostname", "h.example", "--password-stdin"], input: Array("approved-secret".utf8)), 0)
        let created = try onTerminal(a, ["remote", "set", remote], [])
        XCTAssertEqual(created.status, 0, created.shown)
        XCTAssertTrue(created.shown.contains("Recovery key (shown once"), created.shown)
        let recoveryKey = try first("[0-9A-Z]{4}(-[0-9A-Z]{4}){6}", in: created.shown)
        assertStatus(try a.run("sync"), 0)

        // B asks; A sees the same code and is asked before anything changes.
        let asked = try b.run("init", "--join", remote, "--name", "laptop")
        assertStatus(asked, 75)
        let code = try first("[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}", in: asked.output)
        XCTAssertTrue(try a.run("device", "requests").output.contains(code))
        let declined = try onTerminal(a, ["device", "approve", code], [.expect("[y/N] "), .type("n\n")])
        XCTAssertEqual(declined.status, 1, declined.shown)
        XCTAssertTrue(declined.shown.contains("\"laptop\""), declined.shown)
        XCTAssertTrue(try a.run("device", "requests").output.contains(code), "declining changed nothing")
        let approved = try onTerminal(a, ["device", "approve", code.lowercased()], [.expect("[y/N] "), .type("y\n")])
        XCTAssertEqual(approved.status, 0, approved.shown)
        let confirmation = try first("[0-9A-Z]{4}-[0-9A-Z]{4}\\s*$", in: approved.shown).trimmingCharacters(in: .whitespacesAndNewlines)

        // B, asked for the confirmation code, types it and has the vault.
        let joined = try onTerminal(b, ["init", "--join", remote], [.expect("Confirmation code it printed: "), .type(confirmation + "\n")])
        XCTAssertEqual(joined.status, 0, joined.shown)
        XCTAssertEqual(try b.run("read", "cred://host/web/password").output, "approved-secret")

        // The key shown once, typed back in lower case without dashes, joins C with no other device.
        let typed = directory + "/typed-key"
        XCTAssertTrue(FileManager.default.createFile(atPath: typed, contents: Data(recoveryKey.lowercased().replacingOccurrences(of: "-", with: " ").utf8),
                                                    attributes: [.posixPermissions: 0o600]))
        assertStatus(try c.run("init", "--join", remote, "--recovery-key-file", typed), 0)
        XCTAssertEqual(try c.run("read", "cred://host/web/password").output, "approved-secret")
    }
}
