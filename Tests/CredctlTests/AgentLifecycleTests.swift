import Agent
import Foundation
import XCTest

/// The agent's life: one per vault (a second refuses), a socket left by a killed agent replaced,
/// nothing lost when it dies at any moment, started by systemd's socket activation, and deaf to
/// every other user.
final class AgentLifecycleTests: AgentTestCase {
    /// Where this vault's agent listens (not the default vault: a name with its hash).
    private var place: AgentPlace { AgentPlace(vaultPath: vaultPath, environment: credctl.environment) }

    private func startAgent(_ arguments: [String] = [], executable: String = CredctlRunner.binary) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments.isEmpty ? ["agent"] : arguments
        process.environment = credctl.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: place.socket) { usleep(25_000) }
        return process
    }

    func testASecondAgentRefusesAndAKilledOnesSocketIsReplaced() throws {
        let first = try startAgent()
        let second = try credctl.run("agent")
        assertStatus(second, 1)
        XCTAssertTrue(second.stderr.contains("already serves"), second.stderr)
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        XCTAssertTrue(FileManager.default.fileExists(atPath: place.socket), "a killed agent leaves its socket")
        assertStatus(try credctl.run("read", "cred://host/db/password"), 77)
        try unlock()
        XCTAssertEqual(try credctl.run("read", "cred://host/db/password").output, "s3cret")
        let mode = try FileManager.default.attributesOfItem(atPath: runtime + "/credctl")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o700)
    }

    func testEachTerminationSignalEndsTheAgentCleanly() throws {
        for number in [SIGTERM, SIGINT, SIGHUP] {
            let agent = try startAgent()
            try unlock()
            XCTAssertEqual(try agentState(), "unlocked")
            kill(agent.processIdentifier, number)
            // A second signal while it stops changes nothing.
            kill(agent.processIdentifier, number)
            agent.waitUntilExit()
            XCTAssertEqual(agent.terminationReason, .exit, "signal \(number) ended the agent through its handler")
            XCTAssertEqual(agent.terminationStatus, 0, "signal \(number)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: place.socket), "signal \(number): the socket is removed")
            XCTAssertEqual(try agentState(), "not-running")
            assertStatus(try credctl.run("read", "cred://host/db/password"), 77)
        }
    }

    func testKillingTheAgentAtAnyMomentLosesNothingAndCommandsFallBack() throws {
        for round in 0..<5 {
            try unlock()
            let pid = try XCTUnwrap(agentPID())
            // Killed while commands read through it, at a different moment each round.
            let reader = Process()
            reader.executableURL = URL(fileURLWithPath: CredctlRunner.binary)
            reader.arguments = ["read", "cred://host/db/password"]
            reader.environment = credctl.environment
            reader.standardOutput = FileHandle.nullDevice
            reader.standardError = FileHandle.nullDevice
            try reader.run()
            usleep(useconds_t(round * 20_000))
            kill(pid, SIGKILL)
            reader.waitUntilExit()
            XCTAssertTrue([0, 77].contains(reader.terminationStatus), "round \(round): \(reader.terminationStatus)")
            XCTAssertEqual(try agentState(), "not-running")
            let fallback = try credctl.run("read", "cred://host/db/password")
            assertStatus(fallback, 77)
            XCTAssertEqual(try credctl.run("--passphrase-file", passphraseFile, "read", "cred://host/db/password").output, "s3cret")
        }
        assertStatus(try credctl.run("host", "list"), 0)
    }

    func testSocketActivationServesTheVault() throws {
        try FileManager.default.createDirectory(atPath: runtime + "/credctl", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // systemd-socket-activate listens, and on the first connection runs the agent in its own
        // process with the socket as descriptor 3 (LISTEN_FDS=1), as a systemd socket unit does.
        let script = """
            systemd-socket-activate -l "$SOCKET" -E PATH -E HOME -E CREDCTL_VAULT -E CREDCTL_INSECURE_FAST_KDF -E XDG_RUNTIME_DIR "$CREDCTL" agent 2>/dev/null &
            activator=$!
            for i in $(seq 100); do [ -S "$SOCKET" ] && break; sleep 0.05; done
            "$CREDCTL" --passphrase-file "$PASSPHRASE" unlock >/dev/null || exit 10
            "$CREDCTL" read cred://host/db/password; echo
            pid=$("$CREDCTL" status --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["agent"]["pid"])')
            [ "$pid" = "$activator" ] && echo "served by the activated process"
            kill $activator; wait $activator
            """
        let result = try runActivation(script)
        XCTAssertEqual(result.output, "s3cret\nserved by the activated process\n", result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: place.socket), "an activated agent leaves systemd's socket where it is")
    }

    func testSocketActivationWithTheSSHSocketServesSshFirst() throws {
        try FileManager.default.createDirectory(atPath: runtime + "/credctl", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = try OpenSSHServer.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "k", "-f", directory + "/id"])
        assertStatus(try credctl.run("--passphrase-file", passphraseFile, "identity", "add", "deploy", "--private-key", directory + "/id"), 0)
        // Two sockets, named as the units name them; the ssh one is used first, and starts the agent.
        let script = """
            systemd-socket-activate -l "$SOCKET" -l "$SSH_SOCKET" --fdname=control:ssh -E PATH -E HOME -E CREDCTL_VAULT -E CREDCTL_INSECURE_FAST_KDF -E XDG_RUNTIME_DIR "$CREDCTL" agent 2>/dev/null &
            activator=$!
            for i in $(seq 100); do [ -S "$SSH_SOCKET" ] && break; sleep 0.05; done
            SSH_AUTH_SOCK="$SSH_SOCKET" ssh-add -L; echo "listed while locked: $?"
            "$CREDCTL" --passphrase-file "$PASSPHRASE" unlock >/dev/null || exit 10
            SSH_AUTH_SOCK="$SSH_SOCKET" ssh-add -L | cut -d' ' -f3
            pid=$("$CREDCTL" status --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["agent"]["pid"])')
            [ "$pid" = "$activator" ] && echo "served by the activated process"
            kill $activator; wait $activator
            """
        let result = try runActivation(script)
        XCTAssertEqual(result.output, "The agent has no identities.\nlisted while locked: 1\ndeploy\nserved by the activated process\n", result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: place.sshSocket), "an activated agent leaves systemd's ssh socket where it is")
    }

    /// Runs a socket-activation script apart, with the sockets' paths, credctl and the passphrase
    /// file in its environment.
    private func runActivation(_ script: String) throws -> CredctlRunner.Result {
        var environment = credctl.environment
        environment["SOCKET"] = place.socket
        environment["SSH_SOCKET"] = place.sshSocket
        environment["CREDCTL"] = CredctlRunner.binary
        environment["PASSPHRASE"] = passphraseFile
        return try runApart(["/bin/bash", "-c", script], environment: environment)
    }

    func testAnotherUserIsRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to act as another user") }
        try unlock()
        // Open the way to the socket for the test (the agent's own directory is 0700).
        XCTAssertEqual(chmod(directory, 0o711), 0)
        XCTAssertEqual(chmod(runtime, 0o711), 0)
        XCTAssertEqual(chmod(runtime + "/credctl", 0o711), 0)
        XCTAssertEqual(chmod(place.socket, 0o666), 0)
        XCTAssertEqual(chmod(place.sshSocket, 0o666), 0)
        // The control socket is asked for its status, the ssh-agent socket for its identities.
        let probe = """
            import socket, struct, sys
            for path, message in (("\(place.socket)", bytes([1, 1])), ("\(place.sshSocket)", bytes([11]))):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.settimeout(5)
                s.connect(path)
                try:
                    s.sendall(struct.pack(">I", len(message)) + message)
                    print("answered" if s.recv(16) else "closed")
                except (BrokenPipeError, ConnectionResetError):
                    print("closed")
            """
        let result = try runApart(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", probe],
                                  environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(result.output, "closed\nclosed\n", result.stderr)
        // Closed again, the directory is the agent's own once more, and it serves its user still.
        for path in [runtime, runtime + "/credctl"] { XCTAssertEqual(chmod(path, 0o700), 0) }
        XCTAssertEqual(try agentState(), "unlocked")
    }
}
