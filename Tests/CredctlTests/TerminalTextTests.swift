@testable import CredctlKit
import Foundation
import XCTest

/// Values are shown, never obeyed: no control character from a stored or received value reaches
/// the terminal raw.
final class TerminalTextTests: CredctlTestCase {
    func testControlCharactersAreShownEscaped() {
        XCTAssertEqual(TerminalText.inert("plain text, ünïcödé ✓"), "plain text, ünïcödé ✓")
        XCTAssertEqual(TerminalText.inert("a\u{1B}]0;owned\u{07}b"), "a\\x1b]0;owned\\x07b")
        XCTAssertEqual(TerminalText.inert("\u{0}\u{7F}\u{9B}31m\u{85}"), "\\x00\\x7f\\u009b31m\\u0085")
        XCTAssertEqual(TerminalText.inert("one\ntwo\tthree\r"), "one\\x0atwo\\x09three\\x0d")
        XCTAssertEqual(TerminalText.inert("one\ntwo\tthree\r", keepingLines: true), "one\ntwo\tthree\\x0d")
        // A table cell stays one line, and the columns line up on what is shown.
        XCTAssertEqual(Table.render(["NAME", "REASON"], [["a\u{1B}[2J", "x\ny"], ["bb", "z"]]),
                       "NAME      REASON\na\\x1b[2J  x\\x0ay\nbb        z\n")
    }

    /// A path kept in remote.json and shown by status, and an argument echoed in an error.
    func testAStoredPathAndAnEchoedArgumentReachTheTerminalEscaped() throws {
        try initVault()
        let remote = directory + "/remote\u{1B}]0;owned\u{07}\u{1B}[2J"
        let shown = directory + "/remote\\x1b]0;owned\\x07\\x1b[2J"
        let bound = try credctl.run("remote", "set", remote, "--recovery-key-file", directory + "/recovery-key")
        assertStatus(bound, 0)
        XCTAssertTrue(bound.output.contains("Created the remote in \(shown); other devices join with: credctl init --join \(shown)\n"), bound.output)
        let status = try credctl.run("status")
        assertStatus(status, 0)
        XCTAssertTrue(status.output.contains("Remote:      \(shown)"), status.output)
        XCTAssertFalse(status.stdout.contains(0x1B) || status.stdout.contains(0x07))
        // JSON keeps the exact value, escaped the JSON way.
        let json = try JSONSerialization.jsonObject(with: Data(try credctl.run("status", "--json").stdout)) as? [String: Any]
        XCTAssertEqual(json?["remote"] as? String, remote)

        let missing = try credctl.run("host", "show", "web\u{1B}[31m")
        assertStatus(missing, 66)
        XCTAssertTrue(missing.stderr.hasPrefix("credctl: error: No host 'web"), missing.stderr)
        XCTAssertFalse(missing.stderr.contains("\u{1B}"))
    }
}
