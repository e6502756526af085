import Foundation
import XCTest

/// `credctl import ssh-config` and `credctl export ssh-config` on ssh_config files written the
/// way people write them: Includes, wildcards, Match blocks, comments, odd spacing. (Host lines
/// of several names and ProxyJump chains: `SSHConfigJumpImportTests`.)
final class SSHConfigImportTests: CredctlTestCase {
    private var home: String { directory + "/home" }
    private var marker: String { directory + "/executed" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(atPath: home + "/.ssh/config.d", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        credctl.environment["HOME"] = home
        try initVault()
        let keygen = Process()
        keygen.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        keygen.arguments = ["-q", "-t", "ed25519", "-N", "", "-C", "work", "-f", home + "/.ssh/id_work"]
        try keygen.run()
        keygen.waitUntilExit()
        try write(".ssh/config", """
            # Personal config
            Include config.d/*.conf
            Include ~/.ssh/missing-*

            Host bastion
                HostName bastion.example.com
                User jump
                Port 2200

            Host web web.example
              HostName=10.0.0.5
            \tProxyJump   bastion
              LocalForward 8080 localhost:80
              IdentityFile ~/.ssh/id_work   # the work key
              ProxyCommand touch \(marker)   # ignored by ssh too: ProxyJump came first

            Host *.internal
              User admin
              Port 2222

            Match host db.internal exec "touch \(marker)"
              User nobody

            HOST db.internal
              ProxyCommand touch \(marker)
              LocalCommand touch \(marker)
              PermitLocalCommand yes

            Host broken
              Port 22x

            Host *
              User everyone
              ServerAliveInterval 30
            """)
        try write(".ssh/config.d/10-extra.conf", "Host extra\n  HostName \"extra.example\"\n  DynamicForward 127.0.0.1:1080\n  RemoteForward 9000 [::1]:9001\n")
    }

    private func write(_ relative: String, _ text: String) throws {
        try text.write(toFile: home + "/" + relative, atomically: true, encoding: .utf8)
    }

    private func importing(_ arguments: String..., status: Int32 = 0) throws -> [String: [String: Any]] {
        let result = try credctl.run(["import", "ssh-config", "--json"] + arguments)
        assertStatus(result, status)
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
        XCTAssertEqual(document?["imported"] as? Bool, status == 0 && !arguments.contains("--dry-run"))
        let hosts = try XCTUnwrap(document?["hosts"] as? [[String: Any]])
        return Dictionary(hosts.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    private func shown(_ label: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try credctl.run("host", "show", label, "--json").stdout)) as? [String: Any])
    }

    func testHostsKeysAndForwardsComeInOnceAndNothingIsEverRun() throws {
        let plan = try importing("--dry-run", "--skip-unsupported")
        XCTAssertEqual(plan["web"]?["action"] as? String, "created")
        XCTAssertEqual(plan["broken"]?["action"] as? String, "skipped")
        XCTAssertEqual(try credctl.run("host", "list", "--json").output.contains("bastion"), false, "a dry run writes nothing")

        let first = try importing("--skip-unsupported")
        XCTAssertEqual(Set(first.filter { $0.value["action"] as? String == "created" }.keys), ["bastion", "web", "web.example", "db.internal", "extra"])
        XCTAssertEqual(first["*.internal"]?["action"] as? String, "skipped")
        XCTAssertEqual(first["*"]?["action"] as? String, "skipped")
        XCTAssertEqual(first["broken"]?["action"] as? String, "skipped")
        XCTAssertTrue(first.keys.contains { $0.hasPrefix("host db.internal exec") }, "the Match block is listed as skipped")
        XCTAssertEqual(first["db.internal"]?["notes"] as? [String], ["LocalCommand not imported (never run)", "ProxyCommand not imported (never run)"])
        XCTAssertEqual(first["web"]?["notes"] as? [String], ["key \(home)/.ssh/id_work imported as identity 'id_work'"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "nothing from the file was executed")

        let web = try shown("web")
        XCTAssertEqual(web["hostname"] as? String, "10.0.0.5")
        XCTAssertEqual(try shown("web.example")["hostname"] as? String, "10.0.0.5", "every name of the Host line")
        XCTAssertEqual(web["user"] as? String, "everyone", "Host * applies, first value wins")
        XCTAssertEqual(web["auth"] as? String, "publickey")
        XCTAssertEqual(try shown("db.internal")["port"] as? Int, 2222, "a matching pattern block's Port")
        XCTAssertEqual(try shown("db.internal")["user"] as? String, "admin")
        XCTAssertEqual(try shown("bastion")["port"] as? Int, 2200)
        XCTAssertEqual(try shown("extra")["hostname"] as? String, "extra.example")
        let resolved = try credctl.run("resolve", "web", "--json").output
        XCTAssertTrue(resolved.contains("bastion.example.com"), "ProxyJump linked to the bastion host")
        // The key file's bytes are sealed in the vault.
        XCTAssertEqual(try credctl.run("read", "cred://identity/id_work/privkey").stdout, Array(try Data(contentsOf: URL(fileURLWithPath: home + "/.ssh/id_work"))))
        let forwards = try credctl.run("forward", "list").output
        XCTAssertTrue(forwards.contains("8080:localhost:80") && forwards.contains("127.0.0.1:1080") && forwards.contains("9000:[::1]:9001"), forwards)

        // Again: nothing new. Then a changed Port updates the same host.
        let again = try importing("--skip-unsupported")
        XCTAssertEqual(Set(again.filter { $0.value["action"] as? String == "created" || $0.value["action"] as? String == "updated" }.keys), [])
        try write(".ssh/config.d/10-extra.conf", "Host extra\n  HostName extra.example\n  Port 2022\n")
        XCTAssertEqual(try importing("--skip-unsupported")["extra"]?["action"] as? String, "updated")
        XCTAssertEqual(try shown("extra")["port"] as? Int, 2022)
        XCTAssertEqual(try credctl.run("host", "list").output.components(separatedBy: "\n").filter { $0.hasPrefix("extra") }.count, 1)
        XCTAssertEqual(try credctl.run("identity", "list").output.components(separatedBy: "\n").filter { $0.hasPrefix("id_work") }.count, 1, "the key is reused")
    }

    func testASettingCredctlCannotHoldStopsTheWholeImportUnlessSkipped() throws {
        // The table's columns are as wide as the longest name, which holds the test's directory.
        let table = """
            ACTION HOST ENDPOINT
            skipped Include ~/.ssh/missing-* -
            skipped *.internal -
            skipped host db.internal exec touch <dir>/executed -
            skipped * -
            would create extra everyone@extra.example:22
            would create bastion jump@bastion.example.com:2200
            would create web everyone@10.0.0.5:22
            would create web.example everyone@10.0.0.5:22
            would create db.internal admin@db.internal:2222
            skipped broken -

            """
        let lists = """
            Problems:
              host db.internal exec touch <dir>/executed: Match block not imported (never evaluated: its criteria can run commands)
              db.internal: LocalCommand not imported (never run)
              db.internal: ProxyCommand not imported (never run)
              broken: Port '22x' is not a port number
            Notes:
              Include ~/.ssh/missing-*: matches no file
              *.internal: a pattern: its settings apply to the hosts it matches
              *: a pattern: its settings apply to the hosts it matches
              web: key <dir>/home/.ssh/id_work imported as identity 'id_work'

            """
        for arguments in [["import", "ssh-config"], ["import", "ssh-config", "--dry-run"]] {
            let refused = try credctl.run(arguments)
            assertStatus(refused, 65)
            let output = refused.output.replacingOccurrences(of: directory, with: "<dir>").components(separatedBy: "Problems:\n")
            XCTAssertEqual(output.first?.replacing(/\ +/, with: " "), table)
            XCTAssertEqual("Problems:\n" + output.last!, lists)
            let outcome = arguments.count == 3 ? "nothing would be imported" : "nothing was imported"
            XCTAssertEqual(refused.stderr.replacingOccurrences(of: directory, with: "<dir>"), """
                credctl: error: 3 hosts or blocks of <dir>/home/.ssh/config hold settings credctl cannot import; \(outcome).
                credctl: hint: Fix the file, or run again with --skip-unsupported to import the rest without them.

                """)
        }
        XCTAssertEqual(try credctl.run("host", "list", "--json").output, "{\n  \"hosts\": []\n}\n", "nothing was written")
        XCTAssertEqual(try credctl.run("identity", "list", "--json").output, "{\n  \"identities\": []\n}\n", "not even the key")
        XCTAssertEqual(try credctl.run("forward", "list", "--json").output.contains("8080"), false)

        // The same document as an import, with each host's problems and nothing imported.
        let document = try importing(status: 65)
        XCTAssertEqual(document["broken"]?["problems"] as? [String], ["Port '22x' is not a port number"])
        XCTAssertEqual(document["web"]?["problems"] as? [String], [])
        XCTAssertEqual(document["web"]?["action"] as? String, "created", "what the import would do")
        XCTAssertEqual(document["*"]?["problems"] as? [String], [], "a pattern block is no problem")

        // Skipping them imports the rest; the problems are notes.
        let skipped = try importing("--skip-unsupported")
        XCTAssertEqual(skipped["broken"]?["action"] as? String, "skipped")
        XCTAssertEqual(skipped["broken"]?["notes"] as? [String], ["Port '22x' is not a port number"])
        XCTAssertEqual(skipped["db.internal"]?["action"] as? String, "created", "imported without what it cannot hold")
        XCTAssertTrue(skipped.values.allSatisfy { ($0["problems"] as? [String]) == [] })
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "nothing from the file was executed")
    }

    func testExportWritesHostBlocksWithoutSecretsThatImportBackToTheSameHosts() throws {
        assertStatus(try credctl.run(["host", "add", "odd label", "--hostname", "odd.example", "--user", "me", "--password-stdin"], input: Array("never-exported".utf8)), 0)
        _ = try importing("--skip-unsupported")
        let exported = try credctl.run("export", "ssh-config")
        assertStatus(exported, 0)
        XCTAssertFalse(exported.output.contains("never-exported"))
        XCTAssertFalse(exported.output.contains("IdentityFile") || exported.output.contains("id_work"), "no key paths")
        XCTAssertTrue(exported.output.contains("# credctl host: odd label\nHost odd-label\n"), exported.output)
        XCTAssertTrue(exported.output.contains("Host web\n    HostName 10.0.0.5\n    User everyone\n    ProxyJump bastion\n    LocalForward 8080 localhost:80\n"), exported.output)

        // Into a new vault, the exported file gives the same hosts.
        let file = directory + "/exported.conf"
        assertStatus(try credctl.run("export", "ssh-config", "-o", file), 0)
        assertStatus(try credctl.run("export", "ssh-config", "-o", file), 65)
        var other = CredctlRunner(vault: directory + "/other", keyFile: directory + "/other.key")
        other.environment["HOME"] = home
        assertStatus(try other.run("init"), 0)
        assertStatus(try other.run("import", "ssh-config", file), 0)
        for label in ["bastion", "web", "web.example", "db.internal", "extra"] {
            let original = try shown(label), copy = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try other.run("host", "show", label, "--json").stdout)) as? [String: Any])
            for field in ["hostname", "port", "user"] { XCTAssertEqual("\(original[field] ?? "-")", "\(copy[field] ?? "-")", "\(label) \(field)") }
        }
        XCTAssertEqual(try other.run("forward", "list").output.components(separatedBy: "\n").count, try credctl.run("forward", "list").output.components(separatedBy: "\n").count)
        XCTAssertTrue(try other.run("resolve", "web").output.contains("bastion"))
    }

    func testAFileThatCannotBeReadOrParsedIsAClearError() throws {
        assertStatus(try credctl.run("import", "ssh-config", directory + "/nowhere"), 65)
        try write("unterminated", "Host x\n  HostName \"oops\n")
        let refused = try credctl.run("import", "ssh-config", home + "/unterminated")
        assertStatus(refused, 65)
        XCTAssertTrue(refused.stderr.contains("unterminated quote"), refused.stderr)
    }

    func testIncludesInsideAHostQuotesJumpsWithOtherSettingsAndRemovalsFollowSsh() throws {
        try write(".ssh/nested", """
            Host main
              Include ~/.ssh/inner.conf
              Port 2201
            Host 'quoted'
              HostName quoted.example
              IdentityFile '~/.ssh/id_work'
            Host behind
              HostName behind.example
              ProxyJump ops@main:2201
            Host behind2
              HostName behind2.example
              ProxyJump main:2201
            """)
        try write(".ssh/inner.conf", "  User alice\nHost other\n  HostName other.example\n")
        let refused = try importing(home + "/.ssh/nested", status: 65)
        XCTAssertEqual(refused["other"]?["problems"] as? [String], ["Host block not imported: included inside another Host block, which ssh never applies to it alone"])
        let first = try importing(home + "/.ssh/nested", "--skip-unsupported")
        XCTAssertEqual(try shown("main")["user"] as? String, "alice", "the included line belongs to Host main")
        XCTAssertEqual(try shown("main")["port"] as? Int, 2201, "and Host main goes on after the Include")
        XCTAssertEqual(first["other"]?["action"] as? String, "skipped", "ssh never configures 'other' on its own")
        assertStatus(try credctl.run("host", "show", "other"), 66)
        XCTAssertEqual(try shown("quoted")["auth"] as? String, "publickey", "a single-quoted IdentityFile")
        // ops@ is not how main logs in: a jump host of its own, main as ops.
        XCTAssertEqual(first["main-ops"]?["action"] as? String, "created")
        XCTAssertEqual(first["main-ops"]?["notes"] as? [String], ["jump host made for the ProxyJump of 'behind'"])
        XCTAssertTrue(try credctl.run("resolve", "behind").output.contains("Jump:      main-ops (ops@main:2201)\n"))
        XCTAssertEqual(try shown("main")["user"] as? String, "alice", "main itself is unchanged")
        XCTAssertTrue(try credctl.run("resolve", "behind2").output.contains("Jump:      main (alice@main:2201)\n"), "main:2201 is main's own port")

        // The file decides User and ProxyJump: removed there, removed here.
        try write(".ssh/inner.conf", "Port 2201\n")
        try write(".ssh/nested", "Host main\n  Include ~/.ssh/inner.conf\nHost behind2\n  HostName behind2.example\n")
        let again = try importing(home + "/.ssh/nested")
        XCTAssertEqual(again["main"]?["action"] as? String, "updated")
        XCTAssertNil(try shown("main")["user"] as? String)
        XCTAssertFalse(try credctl.run("resolve", "behind2").output.contains("main"))
    }

    func testTheExportedFileIsReadBySshItself() throws {
        assertStatus(try credctl.run("host", "add", "quote", "--hostname", "fe80::1%eth0", "--user", "o.brien@corp.example"), 0)
        assertStatus(try credctl.run("host", "add", "spaced label", "--hostname", "s.example", "--user", "me"), 0)
        let file = directory + "/exported.conf"
        assertStatus(try credctl.run("export", "ssh-config", "-o", file), 0)
        for (alias, hostname, user) in [("quote", "fe80::1%eth0", "o.brien@corp.example"), ("spaced-label", "s.example", "me")] {
            let ssh = Process()
            ssh.executableURL = URL(fileURLWithPath: "/usr/bin/ssh")
            ssh.arguments = ["-G", "-F", file, alias]
            let output = Pipe()
            ssh.standardOutput = output
            ssh.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try ssh.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            ssh.waitUntilExit()
            XCTAssertEqual(ssh.terminationStatus, 0, "ssh -G refused the exported file")
            XCTAssertTrue(text.contains("\nhostname \(hostname)\n"), text)
            XCTAssertTrue(text.hasPrefix("user \(user)\n") || text.contains("\nuser \(user)\n"), text)
        }
    }
}
