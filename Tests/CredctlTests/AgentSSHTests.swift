import Agent
import Foundation
import TestSupport
import XCTest
import struct Identifiers.UUID

/// The agent as ssh's agent (docs/agent.md, "The ssh-agent"), against a real sshd on 127.0.0.1:
/// Ed25519, RSA (encrypted, its passphrase stored) and ECDSA identities sign inside the agent,
/// `credctl ssh` offers only its hops' keys, a locked agent refuses, and no private key is in
/// any other process.
final class AgentSSHTests: AgentTestCase {
    private var server: OpenSSHServer!
    private var keyMaterial: [[UInt8]] = []
    private let rsaPassphrase = "rsa-" + UUID().uuidString
    private var publicKeys: [String: String] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        let keys = [("ed", ["-t", "ed25519", "-N", ""]), ("rsa", ["-t", "rsa", "-b", "3072", "-N", rsaPassphrase]), ("ecdsa", ["-t", "ecdsa", "-b", "384", "-N", ""])]
        for (label, options) in keys {
            try OpenSSHServer.run("/usr/bin/ssh-keygen", ["-q"] + options + ["-C", label, "-f", directory + "/id_\(label)"])
            publicKeys[label] = try String(contentsOfFile: directory + "/id_\(label).pub", encoding: .utf8)
            keyMaterial += try PrivateKeyBytes.of(keyFile: directory + "/id_\(label)", passphrase: label == "rsa" ? rsaPassphrase : "", scratch: directory)
        }
        server = try OpenSSHServer(authorizedKeys: keys.map { publicKeys[$0.0]! })
        credctl.environment["SSH_AUTH_SOCK"] = nil
        credctl.environment["PATH"] = "/usr/bin:/bin"
        let port = String(server.port)
        for (label, _) in keys {
            let input: [UInt8]? = label == "rsa" ? Array(rsaPassphrase.utf8) : nil
            assertStatus(try credctl.run(["--passphrase-file", passphraseFile, "identity", "add", label, "--private-key", directory + "/id_\(label)"]
                                         + (input == nil ? [] : ["--passphrase-stdin"]), input: input ?? []), 0)
            assertStatus(try credctl.run("host", "add", label, "--hostname", "127.0.0.1", "--port", port, "--user", OpenSSHServer.user,
                                         "--auth", "publickey", "--identity", label), 0)
        }
    }

    override func tearDownWithError() throws {
        server = nil
        try super.tearDownWithError()
    }

    private var place: AgentPlace { AgentPlace(vaultPath: vaultPath, environment: credctl.environment) }
    private var vaultSocket: String { place.sshSocket }

    private func ssh(_ label: String, _ words: String...) throws -> CredctlRunner.Result {
        try credctl.run(["ssh", label, "--", "-F", server.clientConfig, "-o", "PasswordAuthentication=no"] + words)
    }

    /// `ssh-add -L` against `socket`: the public keys it lists, without comments.
    private func listed(_ socket: String) throws -> [String] {
        let output = (try? OpenSSHServer.run("/usr/bin/env", ["SSH_AUTH_SOCK=\(socket)", "/usr/bin/ssh-add", "-L"])) ?? ""
        return output.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") }.filter { !$0.contains("no identities") }
    }

    private func key(_ label: String) -> String { publicKeys[label]!.split(separator: " ").prefix(2).joined(separator: " ") }

    func testEveryKeyTypeSignsInsideTheUnlockedAgentAndNoOtherProcessHoldsAKey() throws {
        try unlock()
        let sampler = ProcessSampler(secrets: keyMaterial)
        for label in ["ed", "rsa", "ecdsa"] {
            let result = try ssh(label, "echo", label)
            assertStatus(result, 0)
            XCTAssertEqual(result.output, "\(label)\n")
        }
        // A session kept open: its ssh's memory (readable as root) holds no private key.
        let session = Process()
        session.executableURL = URL(fileURLWithPath: CredctlRunner.binary)
        session.arguments = ["ssh", "rsa", "--", "-F", server.clientConfig, "-o", "PasswordAuthentication=no", "cat"]
        session.environment = credctl.environment
        let input = Pipe()
        session.standardInput = input
        session.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        session.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try session.run()
        var ssh: [(pid: Int, program: String, bytes: [UInt8])] = []
        for _ in 0..<200 where ssh.isEmpty {
            ssh = SecretScan.processes().filter { $0.program == "ssh" && String(decoding: $0.bytes, as: UTF8.self).contains(server.clientConfig) }
            if ssh.isEmpty { usleep(50_000) }
        }
        usleep(500_000)
        XCTAssertFalse(ssh.isEmpty)
        for process in ssh where ProcessMemory.readable(Int32(process.pid)) {
            XCTAssertNil(ProcessMemory.find(keyMaterial, in: Int32(process.pid)), "ssh's memory holds a private key")
        }
        try input.fileHandleForWriting.close()
        session.waitUntilExit()
        XCTAssertEqual(session.terminationStatus, 0)
        let sampled = sampler.stop()
        XCTAssertEqual(sampled.findings, [], "a private key in some process's arguments or environment")
        XCTAssertFalse(sampled.programs.contains("ssh-add") || sampled.programs.contains("ssh-agent"), "a key was handed to an OpenSSH agent")
        XCTAssertEqual(SecretScan.findInFiles(keyMaterial, under: [runtime]), [])
    }

    func testCredctlSshOffersOnlyTheKeysOfItsHops() throws {
        try unlock()
        XCTAssertEqual(Set(try listed(vaultSocket)), Set(["ed", "rsa", "ecdsa"].map(key)), "the vault's socket offers every identity")
        let status = try JSONSerialization.jsonObject(with: Data(try credctl.run("status", "--json").stdout)) as? [String: Any]
        XCTAssertEqual((status?["agent"] as? [String: Any])?["ssh_auth_sock"] as? String, vaultSocket, "status says where it is")
        // An `ssh` that lists the agent it was given instead of connecting.
        let bin = directory + "/fake-bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: bin + "/ssh", contents: Data("#!/bin/sh\nexec /usr/bin/ssh-add -L\n".utf8), attributes: [.posixPermissions: 0o755]))
        var lister = credctl!
        lister.environment["PATH"] = bin + ":/usr/bin:/bin"
        var result = try lister.run("ssh", "ed")
        assertStatus(result, 0)
        XCTAssertEqual(result.output.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") }, [key("ed")])
        assertStatus(try credctl.run("host", "edit", "ed", "--jump", "ecdsa"), 0)
        result = try lister.run("ssh", "ed")
        assertStatus(result, 0)
        XCTAssertEqual(Set(result.output.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") }), Set([key("ed"), key("ecdsa")]))
        // Each connection's socket goes once its credctl ssh has closed its connection to the agent.
        var left: [String] = []
        for _ in 0..<40 {
            left = try FileManager.default.contentsOfDirectory(atPath: runtime + "/credctl").filter { $0.hasPrefix("ssh-agent") }
            if left.count == 1 { break }
            usleep(50_000)
        }
        XCTAssertEqual(left, [(place.sshSocket as NSString).lastPathComponent], "only the vault's socket is left")
    }

    func testALockedAgentListsNothingAndRefusesToSignAndSshSaysLocked() throws {
        try unlock()
        let message = directory + "/message"
        XCTAssertTrue(FileManager.default.createFile(atPath: message, contents: Data("signed through the agent".utf8)))
        // ssh-keygen -Y sign with a public key (no private key beside it) asks the agent to sign.
        let publicOnly = directory + "/public-only.pub"
        try FileManager.default.copyItem(atPath: directory + "/id_ed.pub", toPath: publicOnly)
        _ = try OpenSSHServer.run("/usr/bin/env", ["SSH_AUTH_SOCK=\(vaultSocket)", "/usr/bin/ssh-keygen", "-Y", "sign", "-n", "file", "-f", publicOnly, message])
        let signature = try String(contentsOfFile: message + ".sig", encoding: .utf8)
        XCTAssertTrue(signature.hasPrefix("-----BEGIN SSH SIGNATURE-----"))
        // OpenSSH checks it: a valid signature by that key.
        _ = try OpenSSHServer.run("/usr/bin/ssh-keygen", ["-Y", "check-novalidate", "-n", "file", "-s", message + ".sig"], input: "signed through the agent")
        try FileManager.default.removeItem(atPath: message + ".sig")

        assertStatus(try credctl.run("lock"), 0)
        XCTAssertEqual(try listed(vaultSocket), [], "a locked agent lists no key")
        XCTAssertThrowsError(try OpenSSHServer.run("/usr/bin/env", ["SSH_AUTH_SOCK=\(vaultSocket)", "/usr/bin/ssh-keygen", "-Y", "sign", "-n", "file",
                                                                    "-f", publicOnly, message]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: message + ".sig"))
        let locked = try ssh("ed", "true")
        assertStatus(locked, 77)
        XCTAssertTrue(locked.stderr.contains("locked"), locked.stderr)
        // Given the passphrase, credctl ssh unlocks and signs itself, as without an agent.
        assertStatus(try credctl.run(["--passphrase-file", passphraseFile, "ssh", "ecdsa", "--", "-F", server.clientConfig, "-o", "PasswordAuthentication=no", "true"]), 0)
    }

    func testAKilledAgentLeavesNoSocketInUseAndSshFallsBackToAsking() throws {
        try unlock()
        assertStatus(try ssh("ed", "true"), 0)
        let pid = try XCTUnwrap(agentPID())
        kill(pid, SIGKILL)
        usleep(200_000)
        assertStatus(try ssh("ed", "true"), 77)
        assertStatus(try credctl.run(["--passphrase-file", passphraseFile, "ssh", "rsa", "--", "-F", server.clientConfig, "-o", "PasswordAuthentication=no", "true"]), 0)
        // A new agent takes the place over, ssh socket included.
        try unlock()
        XCTAssertEqual(Set(try listed(vaultSocket)), Set(["ed", "rsa", "ecdsa"].map(key)))
    }

    /// An askpass program that answers `status` and records that it was asked.
    private func askpass(exiting status: Int) -> String {
        let path = directory + "/askpass-\(status)"
        let script = "#!/bin/sh\nprintf '%s\\n' \"$1\" >> \"\(directory)/asked\"\nexit \(status)\n"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]))
        return path
    }

    private var asked: String { (try? String(contentsOfFile: directory + "/asked", encoding: .utf8)) ?? "" }

    func testARequestForwardedFromAnotherHostIsAskedAboutAndRefusedWhenNothingCanAsk() throws {
        try unlock()
        // On the server (the same machine, another account), software signs with the forwarded agent.
        let remote = "d=$(mktemp -d); printf '%s\\n' '\(key("ed"))' > $d/k.pub; echo m > $d/m; "
            + "ssh-keygen -Y sign -n file -f $d/k.pub $d/m >/dev/null 2>&1; echo signed=$?; rm -rf $d"
        var result = try ssh("ed", "-o", "ForwardAgent=yes", remote)
        assertStatus(result, 0)
        XCTAssertNotEqual(result.output, "signed=0\n", "a forwarded request with nothing to ask is refused")
        XCTAssertEqual(asked, "")
        var confirming = credctl!
        confirming.environment["SSH_ASKPASS"] = askpass(exiting: 0)
        result = try confirming.run(["ssh", "ed", "--", "-F", server.clientConfig, "-o", "PasswordAuthentication=no", "-o", "ForwardAgent=yes", remote])
        assertStatus(result, 0)
        XCTAssertEqual(result.output, "signed=0\n", "the user said yes")
        XCTAssertTrue(asked.contains("Allow use of key ed?") && asked.contains("agent forwarding"), asked)
        XCTAssertEqual(asked.components(separatedBy: "Allow use").count - 1, 1, "only the forwarded signature was asked about, not ssh's own")
    }

    func testAnIdentityMarkedConfirmIsAskedAboutEachUseThroughTheAgentAndWithout() throws {
        assertStatus(try credctl.run("identity", "edit", "ed", "--confirm"), 0)
        try unlock()
        var refusing = credctl!
        refusing.environment["SSH_ASKPASS"] = askpass(exiting: 1)
        assertStatus(try refusing.run(["ssh", "ed", "--", "-F", server.clientConfig, "-o", "PasswordAuthentication=no", "true"]), 255)
        XCTAssertTrue(asked.contains("Allow use of key ed?"), asked)
        var confirming = credctl!
        confirming.environment["SSH_ASKPASS"] = askpass(exiting: 0)
        assertStatus(try confirming.run(["ssh", "ed", "--", "-F", server.clientConfig, "-o", "PasswordAuthentication=no", "true"]), 0)
        // Nothing that can ask: refused. The other identities are not asked about.
        assertStatus(try ssh("ed", "true"), 255)
        assertStatus(try ssh("ecdsa", "true"), 0)
        // Without an agent, credctl ssh asks the same way itself.
        assertStatus(try credctl.run("lock"), 0)
        let before = asked.components(separatedBy: "Allow use").count
        assertStatus(try confirming.run(["--passphrase-file", passphraseFile, "ssh", "ed", "--", "-F", server.clientConfig, "-o", "PasswordAuthentication=no", "true"]), 0)
        XCTAssertEqual(asked.components(separatedBy: "Allow use").count, before + 1)
        assertStatus(try credctl.run(["--passphrase-file", passphraseFile, "ssh", "ed", "--", "-F", server.clientConfig, "-o", "PasswordAuthentication=no", "true"]), 255)
    }

    func testWithoutAnAgentOneSocketOffersTheHopsKeysAndTheUsersAgentBehindIt() throws {
        // The user's own ssh-agent holds another key; a jump host authenticates with it.
        let agent = try UserSSHAgent(socket: runtime + "/user-agent.sock")
        defer { agent.stop() }
        let socket = agent.socket
        _ = try OpenSSHServer.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "own", "-f", directory + "/id_own"])
        _ = try OpenSSHServer.run("/usr/bin/env", ["SSH_AUTH_SOCK=\(socket)", "/usr/bin/ssh-add", "-q", directory + "/id_own"])
        assertStatus(try credctl.run("host", "add", "gate", "--hostname", "127.0.0.1", "--port", String(server.port), "--auth", "agent"), 0)
        assertStatus(try credctl.run("host", "edit", "rsa", "--jump", "gate"), 0)
        let bin = directory + "/fake-bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: bin + "/ssh", contents: Data("#!/bin/sh\nexec /usr/bin/ssh-add -L\n".utf8), attributes: [.posixPermissions: 0o755]))
        var lister = credctl!
        lister.environment["PATH"] = bin + ":/usr/bin:/bin"
        lister.environment["SSH_AUTH_SOCK"] = socket
        let result = try lister.run(["--passphrase-file", passphraseFile, "ssh", "rsa"])
        assertStatus(result, 0)
        let own = try String(contentsOfFile: directory + "/id_own.pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        XCTAssertEqual(Set(result.output.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") }), Set([key("rsa"), own]))
        XCTAssertFalse(result.output.contains(key("ed")), "no key of another host")
        // The user's agent got nothing from the vault.
        let held = try OpenSSHServer.run("/usr/bin/env", ["SSH_AUTH_SOCK=\(socket)", "/usr/bin/ssh-add", "-L"])
        XCTAssertEqual(held.split(separator: "\n").count, 1)
    }
}
