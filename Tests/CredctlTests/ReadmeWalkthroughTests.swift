import Foundation
import XCTest

/// The README's "Using credctl" block, read from README.md and run as written, line by line, by
/// bash, on a fresh home directory: every command's exit status and output are checked, so the
/// first commands a new user copies keep working exactly as the README shows them.
final class ReadmeWalkthroughTests: CredctlTestCase {
    private var home: String { directory + "/home" }

    /// The lines of the first `sh` block under "## Using credctl".
    private func walkthrough() throws -> [String] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try XCTUnwrap(text.range(of: "## Using credctl\n"))
        let start = try XCTUnwrap(text.range(of: "```sh\n", range: section.upperBound..<text.endIndex))
        let end = try XCTUnwrap(text.range(of: "```", range: start.upperBound..<text.endIndex))
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    }

    private func prepareHome() throws -> [String: String] {
        let bin = directory + "/bin"
        for path in [home + "/.ssh", bin] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        // A clipboard that keeps what it was given.
        try "#!/bin/sh\ncat > \"$HOME/clipboard\"\n".write(toFile: bin + "/xclip", atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(bin + "/xclip", 0o755), 0)
        try makeKey(at: home + "/.ssh/id_ed25519", comment: "me@laptop")
        try "Host bastion\n  HostName bastion.example.com\n  User jump\n\nHost app-1 app-2\n  User deploy\n  ProxyJump bastion\n"
            .write(toFile: home + "/.ssh/config", atomically: true, encoding: .utf8)
        let binaries = (CredctlRunner.binary as NSString).deletingLastPathComponent
        return ["HOME": home, "PATH": "\(binaries):\(bin):/usr/bin:/bin", "PW": "correct horse", "CREDCTL_INSECURE_FAST_KDF": "1"]
    }

    private func run(_ line: String, environment: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runApart(["/bin/bash", "-o", "pipefail", "-c", line], environment: environment, workingDirectory: home)
        let normalize = { (text: String) in
            text.replacingOccurrences(of: self.home, with: "~")
                .replacingOccurrences(of: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", with: "<id>", options: .regularExpression)
        }
        return (result.status, normalize(result.output), normalize(result.stderr))
    }

    func testTheReadmeWalkthroughRunsAsWritten() throws {
        let environment = try prepareHome()
        let expected: [(prefix: String, stdout: String)] = [
            ("credctl init --key-file", """
                Created vault ~/.local/share/credctl (device <id>); it unlocks with the key file ~/.config/credctl/key.
                Keep a copy of the key file somewhere safe: without it the vault cannot be opened.

                """),
            ("printf '%s\\n' \"$PW\" | credctl host add web-1", "Added host 'web-1' (10.0.0.5:22, password).\n"),
            ("credctl identity add laptop", "Added identity 'laptop' (ssh-ed25519).\n"),
            ("credctl host add db", "Added host 'db' (db.internal:22, publickey).\n"),
            ("credctl host list", """
                LABEL  ADDRESS         USER    AUTH       GROUP
                db     db.internal:22  -       publickey  -
                web-1  10.0.0.5:22     deploy  password   -

                """),
            ("credctl resolve db", """
                Host:      db
                Connect:   db.internal:22
                Jump:      web-1 (deploy@10.0.0.5:22)
                Auth:      publickey with identity 'laptop' (ssh-ed25519)
                (secrets hidden; add --reveal to print them)

                """),
            ("credctl read cred://host/web-1/password | xclip", ""),
            ("credctl import ssh-config --dry-run", """
                ACTION        HOST     ENDPOINT
                would create  bastion  jump@bastion.example.com:22
                would create  app-1    deploy@app-1:22
                would create  app-2    deploy@app-2:22

                """),
        ]
        let lines = try walkthrough()
        XCTAssertEqual(lines.count, expected.count, "the README's block has \(lines.count) commands: \(lines)")
        for (line, expectation) in zip(lines, expected) {
            XCTAssertTrue(line.hasPrefix(expectation.prefix), "README line '\(line)' is not '\(expectation.prefix)…'")
            let result = try run(line, environment: environment)
            XCTAssertEqual(result.status, 0, "\(line): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", line)
            XCTAssertEqual(result.stdout, expectation.stdout, line)
        }
        XCTAssertEqual(try String(contentsOfFile: home + "/clipboard", encoding: .utf8), "correct horse", "the password reached the pipe, exactly")
    }
}
