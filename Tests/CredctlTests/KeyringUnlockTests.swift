import Foundation
import XCTest

/// Unlocking through the desktop keyring, with a real gnome-keyring on a private bus, and the
/// fallback to the vault's other method whenever the keyring cannot be used.
final class KeyringUnlockTests: CredctlTestCase {
    /// The runner without its key file: only the keyring (or nothing) can unlock.
    private func withoutKey(_ environment: [String: String]) -> CredctlRunner {
        var runner = credctl!
        runner.environment["CREDCTL_KEY_FILE"] = nil
        runner.environment.merge(environment) { $1 }
        runner.environment["CREDCTL_KEYRING_TIMEOUT_MS"] = "1000"
        return runner
    }

    /// A vault with a key file and a keyring slot in a fresh gnome-keyring, holding host 'web'.
    private func vaultUnlockingWithKeyring(password: String) throws -> (HeadlessKeyring, CredctlRunner) {
        let daemon = try HeadlessKeyring(provider: .gnomeKeyring)
        var setup = credctl!
        setup.environment.merge(daemon.environment) { $1 }
        assertStatus(try setup.run("init"), 0)
        assertStatus(try setup.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array(password.utf8)), 0)
        assertStatus(try setup.run("unlock-method", "set", "keyring"), 0)
        return (daemon, setup)
    }

    func testAVaultUnlocksFromTheKeyringAndFallsBackToItsKeyFile() throws {
        let (daemon, setup) = try vaultUnlockingWithKeyring(password: "from-the-vault")
        XCTAssertTrue(try setup.run("status").output.contains("unlocks with keyfile, keyring"))

        // In the desktop session: no key file, no prompt, the keyring opens it.
        let desktop = withoutKey(daemon.environment)
        let read = try desktop.run("read", "cred://host/web/password")
        assertStatus(read, 0)
        XCTAssertEqual(read.output, "from-the-vault")
        XCTAssertEqual(read.stderr, "")

        // Over SSH (no session bus) with the key file given: the key file, and no keyring call.
        var remote = withoutKey([:])
        remote.environment["CREDCTL_KEY_FILE"] = keyFile
        let fallback = try remote.run("read", "cred://host/web/password")
        assertStatus(fallback, 0)
        XCTAssertEqual(fallback.output, "from-the-vault")
        XCTAssertEqual(fallback.stderr, "")

        // Nothing else to fall back to, and no terminal: locked, with the keyring's reason.
        let noKey = try withoutKey([:]).run("read", "cred://host/web/password")
        assertStatus(noKey, 77)
        XCTAssertTrue(noKey.stderr.contains("no session bus"), noKey.stderr)

        // A locked collection is said as such.
        try daemon.lockLogin()
        let locked = try withoutKey(daemon.environment).run("read", "cred://host/web/password")
        assertStatus(locked, 77)
        XCTAssertTrue(locked.stderr.contains("locked"), locked.stderr)
    }

    func testInitWithTheKeyringRefusesWhenThereIsNoneAndCreatesNothing() throws {
        let noProvider = try HeadlessKeyring(provider: .none)
        var runner = credctl!
        runner.environment.merge(noProvider.environment) { $1 }
        runner.environment["CREDCTL_KEYRING_TIMEOUT_MS"] = "1000"
        let refused = try runner.run("init", "--keyring")
        assertStatus(refused, 69)
        XCTAssertTrue(refused.stderr.contains("nothing provides the Secret Service"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: vaultPath))

        let daemon = try HeadlessKeyring(provider: .gnomeKeyring)
        var desktop = credctl!
        desktop.environment.merge(daemon.environment) { $1 }
        assertStatus(try desktop.run("init", "--keyring"), 0)
        assertStatus(try desktop.run(["host", "add", "db", "--hostname", "db.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        XCTAssertEqual(try withoutKey(daemon.environment).run("read", "cred://host/db/password").output, "pw")
    }

    func testAProviderThatNeverAnswersIsCutOffAndTheVaultKeepsItsKeyFile() throws {
        let (daemon, _) = try vaultUnlockingWithKeyring(password: "still-here")

        // The Secret Service name is owned by a process that takes every call and never answers.
        let silent = try HeadlessKeyring(provider: .silent)
        func timed(_ runner: CredctlRunner, _ arguments: String...) throws -> (CredctlRunner.Result, TimeInterval) {
            let start = Date()
            let result = try runner.run(arguments)
            return (result, Date().timeIntervalSince(start))
        }
        let (status, statusSeconds) = try timed(withoutKey(silent.environment), "status", "--json")
        assertStatus(status, 0)
        let keyring = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(status.stdout)) as? [String: Any])?["keyring"] as? [String: Any])
        XCTAssertEqual(keyring["state"] as? String, "unavailable")
        XCTAssertTrue((keyring["reason"] as? String ?? "").contains("did not answer within 1000 ms"), "\(keyring)")
        XCTAssertLessThan(statusSeconds, 5, "bounded by CREDCTL_KEYRING_TIMEOUT_MS")

        // No other method given: locked, saying the keyring did not answer, in bounded time.
        let (noKey, noKeySeconds) = try timed(withoutKey(silent.environment), "read", "cred://host/web/password")
        assertStatus(noKey, 77)
        XCTAssertTrue(noKey.stderr.contains("did not answer"), noKey.stderr)
        XCTAssertLessThan(noKeySeconds, 5)

        // With its key file the vault works, and never waits on the keyring.
        var withKey = withoutKey(silent.environment)
        withKey.environment["CREDCTL_KEY_FILE"] = keyFile
        let (read, readSeconds) = try timed(withKey, "read", "cred://host/web/password")
        assertStatus(read, 0)
        XCTAssertEqual(read.output, "still-here")
        XCTAssertLessThan(readSeconds, 1)

        // Adding the keyring as a method is refused in bounded time and changes nothing.
        let (refused, refusedSeconds) = try timed(withKey, "unlock-method", "set", "keyring")
        assertStatus(refused, 77)
        XCTAssertTrue(refused.stderr.contains("did not answer"), refused.stderr)
        XCTAssertLessThan(refusedSeconds, 5)
        XCTAssertEqual(try withoutKey(daemon.environment).run("read", "cred://host/web/password").output, "still-here",
                       "the keyring slot made earlier still opens the vault")
    }
}
