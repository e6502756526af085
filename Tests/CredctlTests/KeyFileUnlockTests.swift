import Foundation
import XCTest

/// A key file a new user copies around still opens the vault (a lost or added newline, CRLF,
/// blank lines, raw bytes); `init --key-file` with no path puts it where every command finds it;
/// and a vault that has no passphrase never asks for one — it says how it unlocks.
final class KeyFileUnlockTests: CredctlTestCase {
    private func file(_ name: String, _ bytes: [UInt8]) -> String {
        let path = directory + "/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]))
        return path
    }

    /// A runner with no key named anywhere, its configuration directory inside the test's.
    private var bare: CredctlRunner {
        var runner = credctl!
        runner.environment["CREDCTL_KEY_FILE"] = nil
        runner.environment["XDG_CONFIG_HOME"] = directory + "/config"
        return runner
    }

    private var defaultKey: String { directory + "/config/credctl/key" }

    func testTheKeyOpensTheVaultInEveryFormAndAFileThatHoldsNoKeyIsRefusedByName() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "w.example", "--password-stdin"], input: Array("s3cret".utf8)), 0)
        let text = String(decoding: try XCTUnwrap(FileManager.default.contents(atPath: keyFile)), as: UTF8.self)
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let raw = try XCTUnwrap(Data(base64Encoded: line))
        let forms: [(String, [UInt8])] = [("no-newline", Array(line.utf8)), ("crlf", Array((line + "\r\n").utf8)),
                                          ("blank-lines", Array(("\n" + line + "\n\n\n").utf8)), ("spaces", Array(("  " + line + "\t ").utf8)),
                                          ("raw", Array(raw))]
        for (name, bytes) in forms {
            let result = try bare.run("--key-file", file(name, bytes), "read", "cred://host/web/password")
            assertStatus(result, 0)
            XCTAssertEqual(result.output, "s3cret", name)
        }
        let junk = file("junk", Array("this is a note, not a key: hunter2 hunter2".utf8))
        let refused = try bare.run("--key-file", junk, "read", "cred://host/web/password")
        assertStatus(refused, 65)
        XCTAssertTrue(refused.stderr.contains(junk) && refused.stderr.contains("32-byte key"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("hunter2"))

        // A new vault refuses it before anything is made.
        var other = bare
        other.environment["CREDCTL_VAULT"] = directory + "/other"
        let made = try other.run("init", "--key-file", junk)
        assertStatus(made, 65)
        XCTAssertTrue(made.stderr.contains("holds no key"), made.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/other/config.sqlite"))
    }

    func testInitWithoutAPathMakesTheDefaultKeyFileThatEveryCommandFinds() throws {
        let runner = bare
        let created = try runner.run("init", "--key-file")
        assertStatus(created, 0)
        XCTAssertTrue(created.output.contains(defaultKey), created.output)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: defaultKey)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: directory + "/config/credctl")[.posixPermissions] as? Int, 0o700)
        assertStatus(try runner.run(["host", "add", "web", "--hostname", "w.example", "--password-stdin"], input: Array("s3cret".utf8)), 0)
        XCTAssertEqual(try runner.run("read", "cred://host/web/password").output, "s3cret")
        XCTAssertEqual(try runner.run("read", "cred://host/web/password", "--key-file").output, "s3cret", "--key-file alone names it")

        try FileManager.default.moveItem(atPath: defaultKey, toPath: directory + "/moved")
        let locked = try runner.run("read", "cred://host/web/password")
        assertStatus(locked, 77)
        XCTAssertTrue(locked.stderr.contains("unlocks with a key file") && locked.stderr.contains(defaultKey), locked.stderr)
    }

    func testAVaultWithoutAPassphraseNeverAsksForOneOnATerminal() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "w.example", "--password-stdin"], input: Array("s3cret".utf8)), 0)
        let session = try TerminalSession.run(["read", "cred://host/web/password", "--force-tty"], steps: [.expect("credctl")],
                                              environment: bare.environment, directory: directory)
        XCTAssertEqual(session.status, 77, session.shown)
        XCTAssertFalse(session.shown.contains("passphrase:"), session.shown)
        XCTAssertTrue(session.shown.contains("unlocks with a key file"), session.shown)
        XCTAssertTrue(session.shown.contains("--key-file FILE"), session.shown)

        // With the key file at its default place, the terminal is not needed at all.
        try FileManager.default.createDirectory(atPath: directory + "/config/credctl", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: keyFile, toPath: defaultKey)
        let found = try TerminalSession.run(["read", "cred://host/web/password", "--force-tty"], steps: [.expect("s3cret")],
                                            environment: bare.environment, directory: directory)
        XCTAssertEqual(found.status, 0, found.shown)
        XCTAssertTrue(found.shown.contains("s3cret"))
    }
}
