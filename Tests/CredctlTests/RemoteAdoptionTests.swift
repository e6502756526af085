import Foundation
import Membership
import XCTest

/// A vault that already holds records binds to a remote another vault created: it joins that
/// vault, and its records and secrets reach every device.
final class RemoteAdoptionTests: TwoDeviceTestCase {
    private func vaultID(_ runner: CredctlRunner) throws -> String {
        let status = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try runner.run("status", "--json").stdout)) as? [String: Any])
        return try XCTUnwrap(status["vault_id"] as? String)
    }

    func testAVaultWithSecretsJoinsAnotherVaultsRemoteAndEverythingArrives() throws {
        assertStatus(try a.run(["host", "add", "from-a", "--hostname", "a.example", "--password-stdin"], input: Array("secret of a".utf8)), 0)
        assertStatus(try a.run("sync"), 0)
        let c = CredctlRunner(vault: directory + "/c", keyFile: directory + "/c.key")
        assertStatus(try c.run("init"), 0)
        assertStatus(try c.run(["host", "add", "from-c", "--hostname", "c.example", "--password-stdin"], input: Array("secret of c".utf8)), 0)
        let bound = try c.run("remote", "set", remote, "--recovery-key-file", recoveryKey)
        assertStatus(bound, 0)
        XCTAssertTrue(bound.output.contains("Joined the vault \(try vaultID(a))"), bound.output)
        XCTAssertEqual(try vaultID(c), try vaultID(a))
        assertStatus(try c.run("sync"), 0)
        assertStatus(try a.run("sync"), 0)
        XCTAssertEqual(try a.run("read", "cred://host/from-c/password").output, "secret of c")
        // C still unlocks with its own key file, and reads both vaults' secrets.
        XCTAssertEqual(try c.run("read", "cred://host/from-c/password").output, "secret of c")
        XCTAssertEqual(try c.run("read", "cred://host/from-a/password").output, "secret of a")
        // A device joining later gets all of it.
        try join()
        XCTAssertEqual(try b.run("read", "cred://host/from-c/password").output, "secret of c")
        // Binding again is an ordinary bind.
        let again = try c.run("remote", "set", remote, "--recovery-key-file", recoveryKey)
        XCTAssertTrue(again.output.contains("Bound to the remote"), again.output)
    }

    func testAnotherVaultsRecoveryKeyChangesNothing() throws {
        let c = CredctlRunner(vault: directory + "/c", keyFile: directory + "/c.key")
        assertStatus(try c.run("init"), 0)
        let before = try vaultID(c)
        let wrong = directory + "/wrong"
        try RecoveryKey.generate().printable().withUnsafeBytes { XCTAssertTrue(FileManager.default.createFile(atPath: wrong, contents: Data($0), attributes: [.posixPermissions: 0o600])) }
        let refused = try c.run("remote", "set", remote, "--recovery-key-file", wrong)
        assertStatus(refused, 77)
        XCTAssertTrue(refused.stderr.contains("This recovery key is not the one of the vault on this remote"), refused.stderr)
        XCTAssertEqual(try vaultID(c), before)
        XCTAssertFalse(try c.run("status").output.contains("Remote:"))
    }
}
