import Foundation
import XCTest

/// The command-line contract: commands, output, exit statuses, and where secrets may go.
final class CredctlCommandTests: CredctlTestCase {
    func testPasswordRoundTripsByteExactWithOneTrailingNewlineRemoved() throws {
        try initVault()
        let password: [UInt8] = [0x00, 0xff, 0xfe, 0x20, 0x0a, 0x41, 0x0d, 0x0a, 0x0a]
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: password), 0)
        let read = try credctl.run("read", "cred://host/web/password")
        assertStatus(read, 0)
        XCTAssertEqual(read.stdout, Array(password.dropLast()), "exactly one trailing newline is removed; nothing is added")
        assertStatus(try credctl.run(["host", "edit", "web", "--password-stdin"], input: Array("crlf\r\n".utf8)), 0)
        XCTAssertEqual(try credctl.run("read", "cred://host/web/password").output, "crlf")
    }

    func testGlobalOptionsWorkBeforeAndAfterTheCommand() throws {
        var runner = credctl!
        runner.environment["CREDCTL_VAULT"] = nil
        assertStatus(try runner.run("--vault", vaultPath, "init"), 0)
        let defaultVault = try runner.run(["host", "add", "web", "--hostname", "h.example"])
        assertStatus(defaultVault, 66)
        XCTAssertTrue(defaultVault.stderr.contains("There is no vault in \(directory)/.local/share/credctl."), defaultVault.stderr)
        assertStatus(try runner.run("--vault", vaultPath, "host", "add", "web", "--hostname", "h.example"), 0)
        let before = try runner.run("--vault", vaultPath, "--json", "host", "list")
        let after = try runner.run("host", "list", "--json", "--vault=\(vaultPath)")
        assertStatus(before, 0)
        XCTAssertEqual(before.stdout, after.stdout)
    }

    func testHostListNeedsNoKeyAndJSONParses() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web 1 ✓", "--hostname", "h.example", "--user", "deploy", "--password-stdin"], input: Array("pw".utf8)), 0)
        var locked = credctl!
        locked.environment["CREDCTL_KEY_FILE"] = nil
        let list = try locked.run("host", "list", "--json")
        assertStatus(list, 0)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout)) as? [String: Any])
        let hosts = try XCTUnwrap(json["hosts"] as? [[String: Any]])
        XCTAssertEqual(hosts.first?["label"] as? String, "web 1 ✓")
        XCTAssertEqual(hosts.first?["user"] as? String, "deploy")
        XCTAssertEqual((hosts.first?["password_ref"] as? String)?.hasPrefix("host."), true)
        let text = try locked.run("host", "list")
        XCTAssertEqual(text.output, "LABEL    ADDRESS       USER    AUTH      GROUP\nweb 1 ✓  h.example:22  deploy  password  -\n")
        let resolve = try locked.run("resolve", "web 1 ✓")
        assertStatus(resolve, 77)
        XCTAssertEqual(resolve.stderr, """
            credctl: error: The vault is locked: it unlocks with a key file on this device and no key file was given (none at \(directory)/.config/credctl/key).
            credctl: hint: Give --key-file FILE, set CREDCTL_KEY_FILE, or keep the key file at \(directory)/.config/credctl/key.

            """)
    }

    func testExitStatuses() throws {
        assertStatus(try credctl.run("host", "list"), 66)  // no vault yet
        try initVault()
        assertStatus(try credctl.run("host", "list", "--bogus"), 64)
        assertStatus(try credctl.run("frobnicate"), 64)
        assertStatus(try credctl.run("host", "add", "web"), 64)  // missing --hostname
        assertStatus(try credctl.run("host", "add", "bad\u{7}label", "--hostname", "h.example"), 65)
        assertStatus(try credctl.run("read", "host.not-a-uuid.password"), 65)
        assertStatus(try credctl.run("resolve", "nope"), 66)
        assertStatus(try credctl.run("host", "add", "agent", "--hostname", "h.example", "--auth", "password"), 0)
        assertStatus(try credctl.run("resolve", "agent"), 66)  // no credential
        var wrong = credctl!
        wrong.environment["CREDCTL_KEY_FILE"] = directory + "/other.key"
        _ = try CredctlRunner(vault: directory + "/other", keyFile: directory + "/other.key").run("init")
        assertStatus(try credctl.run(["host", "add", "pw", "--hostname", "h.example", "--password-stdin"], input: Array("x".utf8)), 0)
        assertStatus(try wrong.run("read", "cred://host/pw/password"), 77)
    }

    func testUsageErrorsPrintTheUsageAndAHint() throws {
        try initVault()
        let result = try credctl.run("host", "add", "web", "--port", "abc", "--hostname", "h")
        assertStatus(result, 64)
        XCTAssertTrue(result.stderr.hasPrefix("credctl: error: --port needs a number, not 'abc'.\nUsage: credctl host add LABEL"), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("credctl: hint: see 'credctl help host add'.\n"), result.stderr)
        XCTAssertTrue(result.stdout.isEmpty)
    }

    func testHelpHasEverySectionForEveryCommand() throws {
        let index = try credctl.run("--help")
        assertStatus(index, 0)
        for command in ["init", "status", "host add", "host edit", "host list", "host show", "host rm", "identity add", "identity list",
                        "identity show", "identity rm", "group add", "group list", "group rm", "forward add", "forward list", "forward rm",
                        "resolve", "read", "remote set", "sync", "device list", "quarantine list", "completion"] {
            XCTAssertTrue(index.output.contains("  \(command) "), "index lists \(command)")
            let help = try credctl.run(["help"] + command.split(separator: " ").map(String.init))
            assertStatus(help, 0)
            for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "EXAMPLES:"] { XCTAssertTrue(help.output.contains(section), "\(command) help has \(section)") }
            XCTAssertEqual(try credctl.run(command.split(separator: " ").map(String.init) + ["--help"]).output, help.output)
        }
        XCTAssertEqual(try credctl.run("--version").output, "credctl 0.1.0\n")
    }

    func testShowNeverPrintsTheSecretAndJSONCarriesTheReference() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "h.example", "--password-stdin"], input: Array("Sup3rSecret!".utf8)), 0)
        for arguments in [["host", "show", "web"], ["host", "show", "web", "--json"], ["resolve", "web"], ["resolve", "web", "--json"], ["status", "--json"]] {
            let result = try credctl.run(arguments)
            assertStatus(result, 0)
            XCTAssertFalse(result.output.contains("Sup3rSecret!"), "\(arguments) printed the secret")
        }
        let revealed = try credctl.run("resolve", "web", "--json", "--reveal")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(revealed.stdout)) as? [String: Any])
        XCTAssertEqual((json["auth"] as? [String: Any])?["secret"] as? String, "Sup3rSecret!")
    }

    func testReadRefusesATerminalUnlessForced() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "h.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        // `script` gives the command a pseudo-terminal as standard output.
        func underTerminal(_ arguments: String) throws -> String { try credctl.runOnTerminal(arguments) }
        let refused = try underTerminal("read cred://host/web/password")
        XCTAssertTrue(refused.contains("Refusing to print a secret to a terminal."), refused)
        XCTAssertTrue(refused.hasSuffix("status 64"), refused)
        XCTAssertFalse(refused.contains("pw\n"))
        let forced = try underTerminal("read --force-tty cred://host/web/password")
        XCTAssertTrue(forced.hasPrefix("pw"), forced)
        let reveal = try underTerminal("resolve web --reveal")
        XCTAssertTrue(reveal.contains("Refusing to print a secret to a terminal."), reveal)
        XCTAssertTrue(reveal.hasSuffix("status 64"), reveal)
        XCTAssertTrue(try underTerminal("resolve web").contains("Auth:      password (stored)"), "without --reveal a terminal is fine")
    }

    func testGroupsAndForwards() throws {
        try initVault()
        assertStatus(try credctl.run("group", "add", "prod"), 0)
        assertStatus(try credctl.run("group", "add", "eu", "--parent", "prod"), 0)
        assertStatus(try credctl.run("host", "add", "web", "--hostname", "h.example", "--group", "eu"), 0)
        assertStatus(try credctl.run("forward", "add", "web", "--local", "8080:localhost:80"), 0)
        assertStatus(try credctl.run("forward", "add", "web", "--dynamic", "[::1]:1080"), 0)
        assertStatus(try credctl.run("forward", "add", "web", "--dynamic", "1:2:3"), 65)
        assertStatus(try credctl.run("forward", "add", "web", "--local", "8080:localhost:80", "--remote", "1:h:2"), 64)
        let forwards = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try credctl.run("forward", "list", "web", "--json").stdout)) as? [String: Any])
        let specs = (forwards["forwards"] as? [[String: Any]])?.compactMap { $0["spec"] as? String }.sorted()
        XCTAssertEqual(specs, ["8080:localhost:80", "[::1]:1080"])
        assertStatus(try credctl.run("group", "rm", "eu"), 0)
        let host = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try credctl.run("host", "show", "web", "--json").stdout)) as? [String: Any])
        XCTAssertEqual(host["group"] as? String, "prod", "removing a group moves its hosts to the parent")
        let id = try XCTUnwrap((forwards["forwards"] as? [[String: Any]])?.first?["id"] as? String)
        assertStatus(try credctl.run("forward", "rm", id), 0)
        assertStatus(try credctl.run("forward", "rm", id), 66)
    }
}
