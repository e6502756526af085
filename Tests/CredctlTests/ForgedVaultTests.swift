import Foundation
import Membership
import Replication
import Sodium
import XCTest

/// A remote dressed up as the user's vault: a genesis of someone else's that copies the real
/// recovery key's public halves (they are public) and boxes keys of its own choosing to them. A
/// device joining with the real recovery key must refuse it — the key never signed that roster —
/// and a revocation of the device that made the vault replaces the key it showed.
final class ForgedVaultTests: TwoDeviceTestCase {
    func testARosterTheRecoveryKeyNeverSignedIsRefused() throws {
        let shared = DirectoryRemote(root: remote)
        let real = try VaultDocument.decode(try XCTUnwrap(try shared.get(VaultDocument.objectName)))
        let authority = try RosterReader.read(from: shared, pinned: real.genesis, known: []).state.authority
        // The forger's own vault, under the real vault's id and recovery key's public halves.
        let forger = try DeviceKeys.generate(id: "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f", deviceKey: try SecretBytes.random(count: 32))
        let deviceKey = try SecretBytes.random(count: 32)
        let keys = try EpochKeys.generate(epoch: 1)
        let boxes = try keys.boxes(to: [.init(id: "", syncBox: authority.box, vaultBox: authority.box),
                                        .init(id: forger.id, syncBox: forger.syncBox.publicKey, vaultBox: forger.vaultBoxPublicKey)])
        let roster = try DeviceKeys.generate(id: forger.id, deviceKey: deviceKey)
        let genesis = RosterObjects.genesis(vaultID: real.vaultID, creator: roster.publicKeys(sealedName: [1]), authority: authority, keys: boxes,
                                            rosterKey: try roster.rosterKey(deviceKey: deviceKey))
        let fake = DirectoryRemote(root: directory + "/fake")
        try FileManager.default.createDirectory(atPath: directory + "/fake", withIntermediateDirectories: true)
        _ = try fake.createOnly(RosterEntry.objectName(0), bytes: genesis)
        _ = try fake.createOnly(VaultDocument.objectName, bytes: VaultDocument(vaultID: real.vaultID, genesis: RosterEntry.hash(ofObject: genesis)).encoded)

        let c = CredctlRunner(vault: directory + "/c", keyFile: directory + "/c.key")
        assertStatus(try c.run("init"), 0)
        assertStatus(try c.run(["host", "add", "mine", "--hostname", "m.example", "--password-stdin"], input: Array("victim-secret".utf8)), 0)
        let refused = try c.run("remote", "set", directory + "/fake", "--recovery-key-file", recoveryKey)
        assertStatus(refused, 77)
        XCTAssertTrue(refused.stderr.contains("the key never signed it"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/c/remote.json"), "not bound")
        XCTAssertEqual(try fake.list(prefix: "zones/"), [], "nothing of the victim's went to the forged remote")
        // The real remote still takes the same key.
        assertStatus(try c.run("remote", "set", remote, "--recovery-key-file", recoveryKey), 0)
    }

    func testRevokingTheDeviceThatMadeTheVaultReplacesTheKeyItShowed() throws {
        try join()
        let status = try JSONSerialization.jsonObject(with: Data(try a.run("status", "--json").stdout)) as? [String: Any]
        let creator = try XCTUnwrap(status?["device_id"] as? String)
        let fresh = directory + "/replaced-key"
        let revoked = try b.run("device", "revoke", creator, "--yes", "--recovery-key-file", fresh)
        assertStatus(revoked, 0)
        XCTAssertTrue(revoked.stderr.contains("It may know the recovery key"), revoked.stderr)
        let late = CredctlRunner(vault: directory + "/late", keyFile: directory + "/late.key")
        assertStatus(try late.run("init", "--join", remote, "--recovery-key-file", recoveryKey), 77)
        assertStatus(try CredctlRunner(vault: directory + "/later", keyFile: directory + "/later.key").run("init", "--join", remote, "--recovery-key-file", fresh), 0)
    }
}
