import Foundation
import TestSupport
import XCTest
import struct Identifiers.UUID

/// `credctl ssh` against a real OpenSSH server on 127.0.0.1: password, ed25519 key, encrypted
/// RSA key with its stored passphrase, a jump host and a local forward — and no secret in any
/// child's arguments, in ssh's environment, or in a file outside the vault.
final class SSHIntegrationTests: CredctlTestCase {
    private var server: OpenSSHServer!
    private var desktop: CredctlRunner!
    private var rsaPassphrase = ""
    /// The keys' private numbers (not their files' first lines, which hold only the header and
    /// the public key): none may appear anywhere but sealed in the vault.
    private var keyMaterial: [[UInt8]] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        for sub in ["/home", "/runtime", "/tmp"] {
            try FileManager.default.createDirectory(atPath: directory + sub, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        rsaPassphrase = "rsa-" + UUID().uuidString
        try OpenSSHServer.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "ed", "-f", directory + "/id_ed25519"])
        try OpenSSHServer.run("/usr/bin/ssh-keygen", ["-q", "-t", "rsa", "-b", "2048", "-m", "PEM", "-N", rsaPassphrase, "-C", "rsa", "-f", directory + "/id_rsa"])
        keyMaterial = try PrivateKeyBytes.of(keyFile: directory + "/id_ed25519", scratch: directory)
            + PrivateKeyBytes.of(keyFile: directory + "/id_rsa", passphrase: rsaPassphrase, scratch: directory)
        server = try OpenSSHServer(authorizedKeys: [
            try String(contentsOfFile: directory + "/id_ed25519.pub", encoding: .utf8), try String(contentsOfFile: directory + "/id_rsa.pub", encoding: .utf8),
        ])
        desktop = credctl!
        desktop.environment["HOME"] = directory + "/home"
        desktop.environment["XDG_RUNTIME_DIR"] = directory + "/runtime"
        desktop.environment["TMPDIR"] = directory + "/tmp"
        desktop.environment["SSH_AUTH_SOCK"] = nil
        desktop.environment["PATH"] = "/usr/bin:/bin"
        assertStatus(try desktop.run("init"), 0)
        let port = String(server.port), user = OpenSSHServer.user
        assertStatus(try desktop.run(["host", "add", "pw", "--hostname", "127.0.0.1", "--port", port, "--user", user, "--password-stdin"], input: Array(server.password.utf8)), 0)
        assertStatus(try desktop.run("identity", "add", "ed", "--private-key", directory + "/id_ed25519"), 0)
        assertStatus(try desktop.run(["identity", "add", "rsa", "--private-key", directory + "/id_rsa", "--passphrase-stdin"], input: Array(rsaPassphrase.utf8)), 0)
        assertStatus(try desktop.run("host", "add", "ed", "--hostname", "127.0.0.1", "--port", port, "--user", user, "--auth", "publickey", "--identity", "ed"), 0)
        assertStatus(try desktop.run("host", "add", "rsa", "--hostname", "127.0.0.1", "--port", port, "--user", user, "--auth", "publickey", "--identity", "rsa"), 0)
    }

    override func tearDownWithError() throws {
        server = nil  // sshd stops now, not when XCTest lets go of this test case at exit
        try super.tearDownWithError()
    }

    private var secrets: [[UInt8]] { [Array(server.password.utf8), Array(rsaPassphrase.utf8)] + keyMaterial }

    /// Everywhere credctl, ssh, ssh-add or the askpass helper could leave a file: the runtime
    /// directory, HOME, TMPDIR, /dev/shm, and whatever changed in /tmp since `since`.
    private func scannedFiles(since: Date) -> [String] {
        let roots = [directory + "/runtime", directory + "/home", directory + "/tmp"]
        return SecretScan.findInFiles(secrets, under: roots) + SecretScan.findInFiles(secrets, under: ["/tmp", "/dev/shm"], since: since, skipping: directory)
    }

    private func ssh(_ label: String, _ words: String...) throws -> CredctlRunner.Result {
        let lifetime = desktop.environment["SSH_AUTH_SOCK"] == nil ? [] : ["--agent-lifetime", "60"]
        return try desktop.run(["ssh", label] + lifetime + ["--", "-F", server.clientConfig] + words)
    }

    func testPasswordKeyAndEncryptedKeyWithItsPassphraseEachRunARemoteCommand() throws {
        let password = try ssh("pw", "-o", "PubkeyAuthentication=no", "echo", "password:", "$(whoami)")
        assertStatus(password, 0)
        XCTAssertEqual(password.output, "password: \(OpenSSHServer.user)\n")
        let ed = try ssh("ed", "-o", "PasswordAuthentication=no", "echo", "ed25519:", "$(whoami)")
        assertStatus(ed, 0)
        XCTAssertEqual(ed.output, "ed25519: \(OpenSSHServer.user)\n")
        let rsa = try ssh("rsa", "-o", "PasswordAuthentication=no", "echo", "rsa:", "$(whoami)")
        assertStatus(rsa, 0)
        XCTAssertEqual(rsa.output, "rsa: \(OpenSSHServer.user)\n")
        // ssh's exit status is credctl's; the user's -p wins over the vault's port.
        assertStatus(try ssh("ed", "exit", "3"), 3)
        assertStatus(try ssh("ed", "-p", "1", "-o", "ConnectionAttempts=1", "true"), 255)
        for result in [password, ed, rsa] {
            XCTAssertNil(SecretScan.find(secrets, in: result.stdout + Array(result.stderr.utf8)))
        }
        XCTAssertEqual(try leftovers(), [], "the private agent and the askpass socket are gone")
    }

    func testAJumpHostAndALocalForwardCarryTrafficAndNoSecretIsInArgvEnvironmentOrFiles() throws {
        let port = String(server.port)
        assertStatus(try desktop.run("host", "add", "bastion", "--hostname", "127.0.0.1", "--port", port, "--user", OpenSSHServer.user,
                                     "--auth", "publickey", "--identity", "ed"), 0)
        // Through the bastion (key) to the inner host (password), which is reached as "localhost".
        assertStatus(try desktop.run(["host", "add", "inner", "--hostname", "localhost", "--port", port, "--user", OpenSSHServer.user,
                                      "--jump", "bastion", "--password-stdin"], input: Array(server.password.utf8)), 0)
        let echoPort = try Loopback.freePort(), forwardPort = try Loopback.freePort()
        let echo = try EchoServer(port: echoPort)
        assertStatus(try desktop.run("forward", "add", "inner", "--local", "127.0.0.1:\(forwardPort):127.0.0.1:\(echoPort)"), 0)

        // The scans first prove they find a planted copy of a secret in every form they promise.
        try provePlantedCopiesAreFound()
        let started = Date()
        let sampler = ProcessSampler(secrets: secrets)

        // A session that stays up while its standard input is open (`cat`).
        let session = Process()
        session.executableURL = URL(fileURLWithPath: CredctlRunner.binary)
        session.arguments = ["ssh", "inner", "--", "-F", server.clientConfig, "-o", "ExitOnForwardFailure=yes", "-o", "PubkeyAuthentication=yes", "cat"]
        session.environment = desktop.environment
        let input = Pipe(), output = Pipe()
        session.standardInput = input
        session.standardOutput = output
        session.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try session.run()
        defer { if session.isRunning { session.terminate() } }

        var reply: String?
        for _ in 0..<200 where reply == nil {
            reply = EchoServer.roundTrip(port: forwardPort, message: "through the tunnel\n")
            if reply == nil { usleep(50_000) }
        }
        XCTAssertEqual(reply, "through the tunnel\n", "the local forward carries traffic")
        XCTAssertTrue(echo.wasServed)

        // While connected: the top ssh gets a token and an agent socket of credctl's, never a secret.
        let sshProcesses = SecretScan.processes().filter { $0.program == "ssh" }
        XCTAssertFalse(sshProcesses.isEmpty)
        let top = try XCTUnwrap(sshProcesses.first { String(decoding: $0.bytes, as: UTF8.self).contains("ExitOnForwardFailure") })
        let topText = String(decoding: top.bytes, as: UTF8.self)
        XCTAssertTrue(topText.contains("CREDCTL_ASKPASS_TOKEN="), "ssh gets a token, not the password")
        XCTAssertTrue(topText.contains("SSH_AUTH_SOCK=\(directory)/runtime/credctl-ssh-"), "credctl's own agent socket")
        try input.fileHandleForWriting.close()
        session.waitUntilExit()
        let sampled = sampler.stop()
        XCTAssertEqual(session.terminationStatus, 0)
        XCTAssertEqual(try leftovers(), [])
        // Every process, sampled from before credctl started until after it ended: its short-lived
        // children (ssh-add, the askpass helper) included.
        XCTAssertEqual(sampled.findings, [])
        XCTAssertTrue(sampled.programs.contains("ssh"), "the sampler saw ssh: \(sampled.samples) passes")
        XCTAssertFalse(sampled.programs.contains("ssh-add") || sampled.programs.contains("ssh-agent"), "no key is handed to an OpenSSH agent")
        XCTAssertEqual(scannedFiles(since: started), [])
    }

    /// A secret in a short-lived child's environment (Base64, one byte off alignment) and in a
    /// file in each scanned place (hex) is found; then the plants are gone again.
    private func provePlantedCopiesAreFound() throws {
        let sampler = ProcessSampler(secrets: secrets)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["0.2"]
        child.environment = ["PLANTED": String(decoding: SecretScan.forms(of: keyMaterial[0])[4].bytes, as: UTF8.self)]
        try child.run()
        child.waitUntilExit()
        XCTAssertEqual(sampler.stop().findings.count >= 1, true, "the sampler misses a child's environment")
        let started = Date(timeIntervalSinceNow: -1)
        let plants = [directory + "/runtime", directory + "/home", directory + "/tmp", "/dev/shm", "/tmp"].map { $0 + "/planted-\(UUID().uuidString)" }
        for plant in plants { XCTAssertTrue(FileManager.default.createFile(atPath: plant, contents: Data(SecretScan.forms(of: secrets[0])[2].bytes))) }
        let found = scannedFiles(since: started)
        for plant in plants {
            XCTAssertEqual(found.filter { $0.hasSuffix(plant) }.count, 1, "the file scan misses \(plant)")
            try FileManager.default.removeItem(atPath: plant)
        }
    }

    func testWithAnAgentLifetimeTheKeyGoesToTheRunningAgent() throws {
        let agent = try UserSSHAgent(socket: directory + "/runtime/user-agent.sock")
        defer { agent.stop() }
        let socket = agent.socket
        desktop.environment["SSH_AUTH_SOCK"] = socket
        let result = try ssh("rsa", "-o", "PasswordAuthentication=no", "echo", "via the running agent")
        assertStatus(result, 0)
        XCTAssertEqual(result.output, "via the running agent\n")
        // The key stays in the user's agent (for its lifetime); no private agent was started.
        let listed = try OpenSSHServer.run("/usr/bin/env", ["SSH_AUTH_SOCK=\(socket)", "/usr/bin/ssh-add", "-l"])
        XCTAssertTrue(listed.contains("(RSA)"), listed)
        XCTAssertEqual(try leftovers(), [])
        // Without a running agent, --agent-lifetime is refused before ssh starts.
        desktop.environment["SSH_AUTH_SOCK"] = nil
        assertStatus(try desktop.run("ssh", "rsa", "--agent-lifetime", "60", "--", "true"), 69)
    }

    func testTerminatingCredctlStopsSshAndItsAgentSocket() throws {
        let session = Process()
        session.executableURL = URL(fileURLWithPath: CredctlRunner.binary)
        session.arguments = ["ssh", "rsa", "--", "-F", server.clientConfig, "sleep", "30"]
        session.environment = desktop.environment
        session.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        session.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try session.run()
        var connected = false
        for _ in 0..<200 where !connected {
            connected = try ProcessTable.snapshot().contains { $0.arguments.first == "ssh" && $0.arguments.contains("sleep") }
                && !(try leftovers().filter { $0.hasPrefix("credctl-ssh-") }.isEmpty)
            if !connected { usleep(50_000) }
        }
        XCTAssertTrue(connected)
        usleep(500_000)
        kill(session.processIdentifier, SIGTERM)
        session.waitUntilExit()
        // ssh catches SIGTERM and exits 255 ("Killed by signal 15"); credctl ends with its status.
        XCTAssertEqual(session.terminationStatus, 255, "ssh was passed the signal and ended")
        XCTAssertEqual(try leftovers(), [], "the agent socket (and the keys behind it) are gone")
    }

    func testThroughAnUnlockedAgentSshNeedsNoKeyAndALockedOneAsksAgain() throws {
        assertStatus(try desktop.run("unlock"), 0)
        var keyless = desktop!
        keyless.environment["CREDCTL_KEY_FILE"] = nil
        defer { _ = try? desktop.run("--key-file", keyFile, "lock"); killAgent(keyless) }
        for (label, option) in [("pw", "PubkeyAuthentication=no"), ("ed", "PasswordAuthentication=no"), ("rsa", "PasswordAuthentication=no")] {
            let result = try keyless.run(["ssh", label, "--", "-F", server.clientConfig, "-o", option, "echo", label])
            assertStatus(result, 0)
            XCTAssertEqual(result.output, "\(label)\n")
        }
        assertStatus(try keyless.run("lock"), 0)
        assertStatus(try keyless.run(["ssh", "ed", "--", "-F", server.clientConfig, "true"]), 77)
    }

    private func killAgent(_ runner: CredctlRunner) {
        guard let status = try? JSONSerialization.jsonObject(with: Data(try runner.run("status", "--json").stdout)) as? [String: Any],
              let pid = (status["agent"] as? [String: Any])?["pid"] as? Int else { return }
        kill(pid_t(pid), SIGTERM)
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory + "/runtime").filter { $0.hasPrefix("credctl-") }
    }
}
