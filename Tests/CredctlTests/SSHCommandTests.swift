import Foundation
import XCTest

/// `credctl ssh` with a stand-in `ssh` on PATH that records how it was run: the command line
/// built from the vault, and the errors that stop before ssh is ever started.
final class SSHCommandTests: TwoDeviceTestCase {
    private var bin: String { directory + "/bin" }
    private var record: String { directory + "/ssh-was-run" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        // Prints one argument per line, then whether askpass or an agent was set up.
        let script = """
            #!/bin/sh
            for word in "$@"; do printf '%s\\n' "$word"; done > \(record)
            printf 'ASKPASS=%s\\nAGENT=%s\\n' "${SSH_ASKPASS:+set}" "${SSH_AUTH_SOCK:+set}" >> \(record)
            env > \(record).environment
            exit 0
            """
        XCTAssertTrue(FileManager.default.createFile(atPath: bin + "/ssh", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]))
        a.environment["PATH"] = bin + ":/usr/bin:/bin"
        b.environment["PATH"] = bin + ":/usr/bin:/bin"
        assertStatus(try a.run("host", "add", "bastion", "--hostname", "bastion.example", "--port", "2200", "--user", "jump"), 0)
        assertStatus(try a.run(["host", "add", "web", "--hostname", "web.internal", "--user", "deploy", "--jump", "bastion", "--password-stdin"],
                               input: Array("web-password".utf8)), 0)
        assertStatus(try a.run("forward", "add", "web", "--local", "8080:localhost:80"), 0)
        assertStatus(try a.run("forward", "add", "web", "--dynamic", "1080"), 0)
    }

    private func recorded() throws -> [String] {
        try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    func testTheCommandLineCarriesTheHostJumpsAndForwardsWithTheUsersOptionsFirst() throws {
        assertStatus(try a.run("ssh", "web", "--", "-v", "-p", "2222", "-o", "ConnectTimeout=5", "uptime", "-p"), 0)
        let words = try recorded()
        XCTAssertEqual(Array(words.prefix(11)), ["-v", "-p", "2222", "-o", "ConnectTimeout=5",
                                                 "-o", "Port=22", "-o", "User=deploy", "-o", "ProxyJump=jump@bastion.example:2200"])
        XCTAssertEqual(Set([words[11] + " " + words[12], words[13] + " " + words[14]]), ["-L 8080:localhost:80", "-D 1080"])
        XCTAssertEqual(Array(words.suffix(6)), ["--", "web.internal", "uptime", "-p", "ASKPASS=set", "AGENT="])
        XCTAssertEqual(words.count, 21)
        XCTAssertFalse(words.contains { $0.contains("web-password") })
        // A host using the agent needs neither askpass nor a private agent.
        assertStatus(try a.run("ssh", "bastion"), 0)
        XCTAssertEqual(try recorded(), ["-o", "Port=2200", "-o", "User=jump", "--", "bastion.example", "ASKPASS=", "AGENT="])
        // ssh's exit status is credctl's.
        try FileManager.default.removeItem(atPath: bin + "/ssh")
        XCTAssertTrue(FileManager.default.createFile(atPath: bin + "/ssh", contents: Data("#!/bin/sh\nexit 42\n".utf8), attributes: [.posixPermissions: 0o755]))
        assertStatus(try a.run("ssh", "bastion"), 42)
        // Words ssh itself would refuse.
        assertStatus(try a.run("ssh", "bastion", "--", "-p"), 64)
        assertStatus(try a.run("ssh", "bastion", "--", "-Z", "true"), 64)
    }

    /// ssh (and so its ProxyCommand or LocalCommand) does not inherit what leads to the vault
    /// and its key; the askpass socket and token it needs are there.
    func testSSHDoesNotInheritTheVaultOrItsKey() throws {
        var runner = a!
        runner.environment["CREDCTL_PASSPHRASE_FILE"] = directory + "/passphrase-file"
        assertStatus(try runner.run("--key-file", directory + "/a.key", "ssh", "web"), 0)
        let variables = try String(contentsOfFile: record + ".environment", encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertTrue(variables.contains { $0.hasPrefix("CREDCTL_ASKPASS_SOCKET=") }, "\(variables)")
        XCTAssertTrue(variables.contains("CREDCTL_INSECURE_FAST_KDF=1"), "other variables are inherited")
        for name in ["CREDCTL_VAULT", "CREDCTL_KEY_FILE", "CREDCTL_PASSPHRASE_FILE"] {
            XCTAssertFalse(variables.contains { $0.hasPrefix(name + "=") }, name)
        }
    }

    func testNotSyncedLockedAndNoSSHStopBeforeSSHStarts() throws {
        try join()
        assertStatus(try a.run("sync"), 0)
        assertStatus(try b.run("sync", "--zone", "config"), 0)
        let notSynced = try b.run("ssh", "web")
        assertStatus(notSynced, 75)
        XCTAssertTrue(notSynced.stderr.contains("have not synced"), notSynced.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: record))

        var locked = a!
        locked.environment["CREDCTL_KEY_FILE"] = nil
        let refused = try locked.run("ssh", "web")
        assertStatus(refused, 77)
        XCTAssertFalse(FileManager.default.fileExists(atPath: record))

        var noSSH = a!
        noSSH.environment["PATH"] = directory + "/nowhere"
        let missing = try noSSH.run("ssh", "web")
        assertStatus(missing, 69)
        XCTAssertTrue(missing.stderr.contains("OpenSSH client (ssh) was not found"), missing.stderr)
        assertStatus(try a.run("ssh", "nosuchhost"), 66)
    }
}
