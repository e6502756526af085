import Foundation
import XCTest

/// `credctl import ssh-config` with what a vault host (one label, one jump host) does not map one
/// to one: Host lines of several names, and ProxyJump chains, other users and ports, and hops
/// that name no host.
final class SSHConfigJumpImportTests: CredctlTestCase {
    private var config: String { directory + "/ssh_config" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        credctl.environment["HOME"] = directory
        try initVault()
    }

    private func importing(_ text: String, _ arguments: String...) throws -> [String: [String: Any]] {
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try credctl.run(["import", "ssh-config", config, "--json"] + arguments)
        assertStatus(result, 0)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let hosts = try XCTUnwrap(document["hosts"] as? [[String: Any]])
        XCTAssertTrue(hosts.allSatisfy { ($0["problems"] as? [String]) == [] }, "\(hosts)")
        return Dictionary(hosts.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    private func json(_ arguments: String...) throws -> [String: Any] {
        let result = try credctl.run(arguments + ["--json"])
        assertStatus(result, 0)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
    }

    /// The jump chain `resolve` gives, first hop first: `label=user@hostname:port` each.
    private func chain(_ label: String) throws -> [String] {
        let jumps = try XCTUnwrap(try json("resolve", label)["jump"] as? [[String: Any]])
        return jumps.map { "\($0["host"] ?? "")=\(($0["user"] as? String).map { "\($0)@" } ?? "")\($0["hostname"] ?? ""):\($0["port"] ?? "")" }
    }

    func testEveryNameOfAHostLineBecomesAHostWithWhatSshUsesForThatName() throws {
        let imported = try importing("""
            Host app-1 app-2 *.app !app-3
              HostName %h.example.com
              User deploy
            Host app-2 plain
              HostName other.example
            """)
        XCTAssertEqual(Set(imported.filter { $0.value["action"] as? String == "created" }.keys), ["app-1", "app-2", "plain"])
        XCTAssertEqual(try json("host", "show", "app-1")["hostname"] as? String, "app-1.example.com")
        XCTAssertEqual(try json("host", "show", "app-2")["hostname"] as? String, "app-2.example.com", "the first Host line wins, as in ssh")
        XCTAssertEqual(try json("host", "show", "app-2")["user"] as? String, "deploy")
        XCTAssertEqual(try json("host", "show", "plain")["hostname"] as? String, "other.example")
        XCTAssertEqual(try json("resolve", "app-2")["hostname"] as? String, "app-2.example.com")
        XCTAssertNil(imported["app-1"]?["notes"].flatMap { ($0 as? [String])?.first }, "no name left out")
    }

    func testAProxyJumpListBecomesTheJumpChainThatResolveAndSshUseAndImportingAgainCreatesNothing() throws {
        let file = """
            Host a
              HostName a.example
              User alice
            Host b
              HostName b.example
            Host b2
              HostName b2.example
              ProxyJump a
            Host c
              HostName c.example
            Host direct
              HostName direct.example
              ProxyJump a,b2
            Host two
              HostName two.example
              ProxyJump a,b
            Host three
              HostName three.example
              ProxyJump a,b,c
            Host other-user
              ProxyJump ops@a:2200
            Host unknown
              ProxyJump gw.corp:2222,b
            Host *.corp
              User corp
            """
        let first = try importing(file)
        // b2's own jump host is a: the chain goes through b2 itself.
        XCTAssertEqual(try chain("direct"), ["a=alice@a.example:22", "b2=b2.example:22"])
        // b's is none: a jump host that is b reached through a; c through that one.
        XCTAssertEqual(try chain("two"), ["a=alice@a.example:22", "b-via-a=b.example:22"])
        XCTAssertEqual(try chain("three"), ["a=alice@a.example:22", "b-via-a=b.example:22", "c-via-b-via-a=c.example:22"])
        XCTAssertEqual(try chain("b"), [], "b itself still connects directly")
        XCTAssertEqual(try chain("c"), [])
        // Another user and port: a as ops on 2200, with a's own settings otherwise.
        XCTAssertEqual(try chain("other-user"), ["a-ops-2200=ops@a.example:2200"])
        // A hop that names no host: a host of that name, with what the file gives for it.
        XCTAssertEqual(try chain("unknown"), ["gw.corp=corp@gw.corp:2222", "b-via-gw.corp=b.example:22"])
        XCTAssertEqual(first["gw.corp"]?["notes"] as? [String], ["jump host made for the ProxyJump of 'unknown'"])
        let made = ["b-via-a", "c-via-b-via-a", "a-ops-2200", "gw.corp", "b-via-gw.corp"]
        XCTAssertEqual(Set(first.filter { $0.value["action"] as? String == "created" }.keys),
                       Set(made + ["a", "b", "b2", "c", "direct", "two", "three", "other-user", "unknown"]))

        // credctl ssh gives ssh the same chain.
        let bin = directory + "/bin", record = directory + "/ssh-arguments"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let script = "#!/bin/sh\nfor word in \"$@\"; do printf '%s\\n' \"$word\"; done > \(record)\n"
        XCTAssertTrue(FileManager.default.createFile(atPath: bin + "/ssh", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]))
        credctl.environment["PATH"] = bin + ":/usr/bin:/bin"
        assertStatus(try credctl.run("ssh", "three"), 0)
        XCTAssertTrue(try String(contentsOfFile: record, encoding: .utf8).contains("\nProxyJump=alice@a.example,b.example,c.example\n"))

        // Again: the made jump hosts are found by label; nothing is created or changed.
        let hostCount = try XCTUnwrap(try json("host", "list")["hosts"] as? [Any]).count
        let again = try importing(file)
        XCTAssertEqual(again.filter { !["unchanged", "skipped"].contains($0.value["action"] as? String) }.keys.sorted(), [])
        XCTAssertEqual(again["c-via-b-via-a"]?["action"] as? String, "unchanged")
        XCTAssertEqual(try XCTUnwrap(try json("host", "list")["hosts"] as? [Any]).count, hostCount)
        XCTAssertEqual(try chain("three"), ["a=alice@a.example:22", "b-via-a=b.example:22", "c-via-b-via-a=c.example:22"])
    }

    func testAJumpHostFollowsTheHostItCopiesAndAChainThatCannotBeLinkedIsAProblem() throws {
        _ = try importing("Host a\n  HostName a.example\nHost b\n  HostName b.example\nHost t\n  ProxyJump a,b\n")
        XCTAssertEqual(try json("host", "show", "b-via-a")["hostname"] as? String, "b.example")
        // b moves: so does the jump host that is b reached through a.
        let moved = try importing("Host a\n  HostName a.example\nHost b\n  HostName b.example\n  Port 2022\nHost t\n  ProxyJump a,b\n")
        XCTAssertEqual(moved["b-via-a"]?["action"] as? String, "updated")
        XCTAssertEqual(try chain("t"), ["a=a.example:22", "b-via-a=b.example:2022"])
        // A vault host with a stored password: its copy never gets the password, ssh asks for it.
        assertStatus(try credctl.run(["host", "add", "pw", "--hostname", "pw.example", "--password-stdin"], input: Array("secret".utf8)), 0)
        _ = try importing("Host a\n  HostName a.example\nHost u\n  ProxyJump a,pw\n")
        let copy = try json("host", "show", "pw-via-a")
        XCTAssertEqual(copy["auth"] as? String, "keyboard-interactive")
        XCTAssertTrue(copy["password_ref"] is NSNull)
        XCTAssertEqual(copy["jump"] as? String, "a")

        // A loop, or a hop that is the host itself, is a problem: nothing is written.
        try "Host x\n  ProxyJump y\nHost y\n  ProxyJump x\nHost self\n  ProxyJump a,self\n".write(toFile: config, atomically: true, encoding: .utf8)
        let refused = try credctl.run("import", "ssh-config", config)
        assertStatus(refused, 65)
        XCTAssertTrue(refused.output.contains("\n  x: ProxyJump y not linked: the jump hosts would form a loop\n"), refused.output)
        XCTAssertTrue(refused.output.contains("\n  self: ProxyJump a,self not linked: it names the host itself (a loop)\n"), refused.output)
        assertStatus(try credctl.run("host", "show", "x"), 66)
        // Skipped, the hosts come in without the jump they cannot have.
        let skipped = try credctl.run("import", "ssh-config", config, "--skip-unsupported")
        assertStatus(skipped, 0)
        XCTAssertEqual(try chain("x"), [])
        XCTAssertEqual(try chain("y"), ["x=x:22"])
    }

    func testAChainOfHundredsOfHostsIsAProblemNotACrash() throws {
        // h0 jumps through h1, h1 through h2, …: each hop's own ProxyJump is linked first.
        let text = (0..<200).map { "Host h\($0)\n  HostName 10.0.\($0 / 250).\($0 % 250 + 1)\n  ProxyJump h\($0 + 1)\n" }.joined() + "Host h200\n  HostName 10.9.9.9\n"
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try credctl.run("import", "ssh-config", config)
        assertStatus(result, 65)
        XCTAssertTrue(result.output.contains("the jump chain is longer than 32 hosts"), String(result.output.suffix(400)))
        XCTAssertEqual(try credctl.run("host", "list").output, "No hosts.\n", "nothing written")
    }
}
