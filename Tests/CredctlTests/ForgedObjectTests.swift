import Foundation
import Membership
import Replication
import Sodium
import XCTest

/// What a thief of one device's `remote.json` (every transport key that device holds) with write
/// access to the remote can do: seal objects every member opens — and nothing more, because every
/// object must also be signed by the device its name gives. A batch forged as another device is
/// refused by every member with the reason in `quarantine list`; the same records signed with that
/// device's own key (what a thief of its `device-keys` too could write, until it is revoked) are
/// applied, which shows the refusal comes from the signature alone.
final class ForgedObjectTests: TwoDeviceTestCase {
    private var c: CredctlRunner!

    override func setUpWithError() throws {
        try super.setUpWithError()
        c = CredctlRunner(vault: directory + "/c", keyFile: directory + "/c.key")
        try join()
        assertStatus(try c.run("init", "--join", remote, "--recovery-key-file", recoveryKey), 0)
        for device in [a!, b!, c!] { assertStatus(try device.run("sync"), 0) }
    }

    /// The transport keys in a vault's `remote.json`, as its thief reads them.
    private func stolenTransportKeys(_ vault: String) throws -> [UInt32: SecretBytes] {
        let binding = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: vault + "/remote.json"))) as? [String: Any])
        let keys = try XCTUnwrap(binding["transport_keys"] as? [String: String])
        return try Dictionary(uniqueKeysWithValues: keys.map { (try XCTUnwrap(UInt32($0.key)), try SecretBytes(copying: try XCTUnwrap(Base64.decode($0.value)))) })
    }

    private func deviceKeys(_ vault: String) throws -> DeviceKeys {
        try DeviceKeys(decoding: try SecretBytes.read(contentsOfFile: vault + "/device-keys", limit: 4_096))
    }

    /// A host record a device of another vault wrote: valid in every field, so only who signed
    /// its batch can keep it out.
    private func foreignHostEnvelopes(label: String) throws -> [Envelope] {
        let mallory = CredctlRunner(vault: directory + "/mallory", keyFile: directory + "/mallory.key")
        let own = directory + "/mallory-remote"
        assertStatus(try mallory.run("init"), 0)
        assertStatus(try mallory.run("remote", "set", own, "--recovery-key-file", directory + "/mallory-recovery"), 0)
        assertStatus(try mallory.run("host", "add", label, "--hostname", "evil.example", "--user", "root"), 0)
        assertStatus(try mallory.run("sync"), 0)
        let remote = DirectoryRemote(root: own)
        let document = try VaultDocument.decode(try XCTUnwrap(try remote.get(VaultDocument.objectName)))
        let roster = try RosterReader.read(from: remote, pinned: document.genesis, known: []).state
        let keys = try deviceKeys(directory + "/mallory")
        let reader = SignedSeal(vaultID: document.vaultID, roster: roster, writerID: keys.id, signing: keys.signing,
                                transportKeys: try stolenTransportKeys(directory + "/mallory"))
        let name = try XCTUnwrap(try remote.list(prefix: "zones/config/\(keys.id)/").first { $0.hasSuffix(".batch") })
        let opened = try BatchCodec.open(try XCTUnwrap(try remote.get(name)), zone: "config", device: keys.id,
                                         sequence: try XCTUnwrap(BatchObjectName(name, zone: "config")).sequence, with: reader)
        return opened.envelopes.filter { $0.kind == "host" }
    }

    /// `envelopes` as B's next config batch, sealed with A's stolen transport keys and signed with `signing`.
    private func forgeAsB(_ envelopes: [Envelope], signing: SigningKeyPair) throws {
        let shared = DirectoryRemote(root: remote)
        let document = try VaultDocument.decode(try XCTUnwrap(try shared.get(VaultDocument.objectName)))
        let roster = try RosterReader.read(from: shared, pinned: document.genesis, known: []).state
        let victim = try deviceKeys(directory + "/b").id
        let seal = SignedSeal(vaultID: document.vaultID, roster: roster, writerID: victim, signing: signing,
                              transportKeys: try stolenTransportKeys(directory + "/a"))
        let next = UInt64(try shared.list(prefix: "zones/config/\(victim)/").filter { $0.hasSuffix(".batch") }.count + 1)
        _ = try shared.createOnly(Batch.objectName(zone: "config", device: victim, sequence: next),
                                  bytes: try BatchCodec.seal(Batch(zone: "config", device: victim, sequence: next, envelopes: envelopes), with: seal))
    }

    func testABatchForgedAsAnotherDeviceIsRefusedByEveryMemberWithTheReason() throws {
        let forged = try foreignHostEnvelopes(label: "evil")
        XCTAssertEqual(forged.count, 1)
        try forgeAsB(forged, signing: try SigningKeyPair.generate())
        for device in [a!, c!] {
            assertStatus(try device.run("sync"), 0)
            XCTAssertFalse(try device.run("host", "list").output.contains("evil"))
            let quarantine = try device.run("quarantine", "list")
            XCTAssertTrue(quarantine.output.contains("signature does not verify under the key of device"), quarantine.output)
        }
        // B's own next batch takes the next name, and reaches everyone.
        assertStatus(try b.run("host", "add", "honest", "--hostname", "h.example"), 0)
        assertStatus(try b.run("sync"), 0)
        for device in [a!, c!] {
            assertStatus(try device.run("sync"), 0)
            XCTAssertTrue(try device.run("host", "list").output.contains("honest"))
        }
    }

    func testTheSameBatchSignedWithTheDevicesOwnKeyIsApplied() throws {
        try forgeAsB(try foreignHostEnvelopes(label: "signed"), signing: try deviceKeys(directory + "/b").signing)
        for device in [a!, c!] {
            assertStatus(try device.run("sync"), 0)
            XCTAssertTrue(try device.run("host", "list").output.contains("signed"))
        }
    }

    /// A batch signed by a device this vault's roster does not know (one of another vault,
    /// sealed with A's stolen transport keys) is never applied or stored: it waits, and once the
    /// same bytes have waited three syncs, `quarantine list` names it and why, once.
    func testABatchOfADeviceTheRosterDoesNotKnowWaitsThenIsListedOnce() throws {
        let envelopes = try foreignHostEnvelopes(label: "stranger")
        let keys = try deviceKeys(directory + "/mallory")
        let shared = DirectoryRemote(root: remote)
        let document = try VaultDocument.decode(try XCTUnwrap(try shared.get(VaultDocument.objectName)))
        let roster = try RosterReader.read(from: shared, pinned: document.genesis, known: []).state
        let seal = SignedSeal(vaultID: document.vaultID, roster: roster, writerID: keys.id, signing: keys.signing, transportKeys: try stolenTransportKeys(directory + "/a"))
        _ = try shared.createOnly(Batch.objectName(zone: "config", device: keys.id, sequence: 1),
                                  bytes: try BatchCodec.seal(Batch(zone: "config", device: keys.id, sequence: 1, envelopes: envelopes), with: seal))
        for run in 1...4 {
            assertStatus(try a.run("sync"), 0)
            XCTAssertFalse(try a.run("host", "list").output.contains("stranger"))
            let listed = try a.run("quarantine", "list").output
            let mentions = listed.components(separatedBy: "which this device's roster does not know").count - 1
            XCTAssertEqual(mentions, run < 3 ? 0 : 1, "run \(run):\n\(listed)")
        }
    }
}
