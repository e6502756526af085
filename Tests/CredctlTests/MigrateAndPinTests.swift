import Foundation
import XCTest

/// `credctl migrate` and `credctl secret pin`, through the built binary.
final class MigrateAndPinTests: TwoDeviceTestCase {
    private func json(_ runner: CredctlRunner, _ arguments: String...) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try runner.run(arguments).stdout)) as? [String: Any])
    }

    func testSecretsStoredBeforeARemoteMigrateAndAreVerifiedOnTheRemote() throws {
        let c = CredctlRunner(vault: directory + "/c", keyFile: directory + "/c.key")
        assertStatus(try c.run("init"), 0)
        for name in ["one", "two"] {
            assertStatus(try c.run(["host", "add", name, "--hostname", "\(name).example", "--password-stdin"], input: Array("pw-\(name)".utf8)), 0)
        }
        let noRemote = try c.run("migrate")
        assertStatus(noRemote, 66)
        XCTAssertTrue(noRemote.stderr.contains("no remote"), noRemote.stderr)

        // Binding the remote reseals them at once; the device-only copies stay until verified.
        let fresh = directory + "/remote-c"
        assertStatus(try c.run("remote", "set", fresh, "--recovery-key-file", directory + "/recovery-key-c"), 0)
        let plan = try json(c, "migrate", "--dry-run", "--json")
        XCTAssertEqual(plan["dry_run"] as? Bool, true)
        XCTAssertEqual((plan["items"] as? [[String: Any]])?.compactMap { $0["step"] as? String }, ["awaiting_verification", "awaiting_verification"])
        XCTAssertTrue(try c.run("status").output.contains("2 migrated awaiting verification on the remote"))

        let done = try json(c, "migrate", "--json")
        XCTAssertEqual((done["items"] as? [[String: Any]])?.compactMap { $0["step"] as? String }, ["verified", "verified"])
        XCTAssertEqual(done["pending"] as? Int, 0)
        XCTAssertEqual(try c.run("migrate").output, "Nothing to migrate: every secret is syncable, pinned to this device, or verified on the remote.\n")
        XCTAssertFalse(try c.run("status").output.contains("awaiting verification"))
        XCTAssertEqual(try c.run("read", "cred://host/two/password").output, "pw-two")
    }

    func testPinningASyncableSecretRemovesItFromOtherDevicesAndUnpinningBringsItBack() throws {
        assertStatus(try a.run(["host", "add", "bastion", "--hostname", "b.example", "--password-stdin"], input: Array("jump-pw".utf8)), 0)
        assertStatus(try a.run("sync"), 0)
        try join()
        XCTAssertEqual(try b.run("read", "cred://host/bastion/password").output, "jump-pw")

        assertStatus(try a.run("secret", "pin", "cred://host/bastion/password"), 64)
        let pinned = try a.run("secret", "pin", "cred://host/bastion/password", "--device-only")
        assertStatus(pinned, 0)
        XCTAssertTrue(pinned.output.contains("password of host 'bastion' now stays on this device"), pinned.output)
        assertStatus(try a.run("sync"), 0)
        assertStatus(try b.run("sync"), 0)
        assertStatus(try b.run("read", "cred://host/bastion/password"), 66)
        XCTAssertEqual(try a.run("read", "cred://host/bastion/password").output, "jump-pw")
        XCTAssertEqual(((try json(a, "status", "--json"))["counts"] as? [String: Any])?["device_only_secrets"] as? Int, 1)
        assertStatus(try a.run("migrate"), 0)
        XCTAssertEqual(((try json(a, "status", "--json"))["counts"] as? [String: Any])?["device_only_secrets"] as? Int, 1, "pinned: migration leaves it")

        assertStatus(try a.run("secret", "pin", "cred://host/bastion/password", "--syncable"), 0)
        assertStatus(try a.run("sync"), 0)
        assertStatus(try b.run("sync"), 0)
        XCTAssertEqual(try b.run("read", "cred://host/bastion/password").output, "jump-pw")
    }
}
