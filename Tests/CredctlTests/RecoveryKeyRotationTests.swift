import Foundation
import XCTest

/// The recovery key is replaced by `recovery-key rotate`, and by revoking a device that joined
/// with it (its holder knows it): the old key then adds no device, the new one does, and the
/// members keep reading everything.
final class RecoveryKeyRotationTests: TwoDeviceTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        assertStatus(try a.run(["host", "add", "web", "--hostname", "h.example", "--password-stdin"], input: Array("rotated-around".utf8)), 0)
        assertStatus(try a.run("sync"), 0)
    }

    private func joiner(_ name: String) -> CredctlRunner { CredctlRunner(vault: directory + "/" + name, keyFile: directory + "/" + name + ".key") }

    func testARotatedKeyReplacesTheOldOne() throws {
        let fresh = directory + "/new-recovery-key"
        let rotated = try a.run("recovery-key", "rotate", "--recovery-key-file", fresh)
        assertStatus(rotated, 0)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int, 0o600)
        let refused = try joiner("c").run("init", "--join", remote, "--recovery-key-file", recoveryKey)
        assertStatus(refused, 77)
        XCTAssertTrue(refused.stderr.contains("not the one of the vault on this remote"), refused.stderr)
        let d = joiner("d")
        assertStatus(try d.run("init", "--join", remote, "--recovery-key-file", fresh), 0)
        XCTAssertEqual(try d.run("read", "cred://host/web/password").output, "rotated-around", "epoch 1's body read through epoch 2's keys")
        XCTAssertTrue(try d.run("device", "list").output.contains("Epoch: 2"))
        // An existing file is never overwritten.
        let again = try a.run("recovery-key", "rotate", "--recovery-key-file", fresh)
        assertStatus(again, 65)
    }

    func testRevokingADeviceThatJoinedWithTheRecoveryKeyReplacesIt() throws {
        try join()
        let fresh = directory + "/after-revocation"
        let revoked = try a.run("device", "revoke", try deviceID(b), "--yes", "--recovery-key-file", fresh)
        assertStatus(revoked, 0)
        XCTAssertTrue(revoked.stderr.contains("It may know the recovery key"), revoked.stderr)
        assertStatus(try joiner("c").run("init", "--join", remote, "--recovery-key-file", recoveryKey), 77)
        let d = joiner("d")
        assertStatus(try d.run("init", "--join", remote, "--recovery-key-file", fresh), 0)
        XCTAssertEqual(try d.run("read", "cred://host/web/password").output, "rotated-around")
        assertStatus(try b.run("sync"), 77)
    }

    private func deviceID(_ device: CredctlRunner) throws -> String {
        let status = try JSONSerialization.jsonObject(with: Data(try device.run("status", "--json").stdout)) as? [String: Any]
        return try XCTUnwrap(status?["device_id"] as? String)
    }
}
