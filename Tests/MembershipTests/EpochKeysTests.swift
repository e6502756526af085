import Membership
import Sodium
import XCTest

/// An epoch's keys reach every recipient the same, checked against the entry's commitments, and
/// only a holder of the previous vault key can prove an epoch.
final class EpochKeysTests: XCTestCase {
    private struct Member {
        let id: String
        let sync: BoxKeyPair
        let vault: BoxKeyPair
        var recipient: EpochKeys.Recipient { EpochKeys.Recipient(id: id, syncBox: sync.publicKey, vaultBox: vault.publicKey) }

        init(_ id: String) throws {
            self.id = id
            sync = try BoxKeyPair.generate()
            vault = try BoxKeyPair.generate()
        }
    }

    func testEveryRecipientOpensTheSameKeysAndALockedOneTheTransportKeyAlone() throws {
        let a = try Member("aaaaaaaa-0000-4000-8000-000000000000"), b = try Member("bbbbbbbb-0000-4000-8000-000000000000")
        let authority = try BoxKeyPair.generate()
        let keys = try EpochKeys.generate(epoch: 3)
        let boxes = try keys.boxes(to: [b.recipient, EpochKeys.Recipient(id: "", syncBox: authority.publicKey, vaultBox: authority.publicKey), a.recipient])
        XCTAssertEqual(boxes.boxes.map(\.recipient), ["", a.id, b.id], "sorted, the recovery authority first")
        for member in [a, b] {
            let opened = try EpochKeys.open(boxes, as: member.id, syncBox: member.sync, vaultBox: member.vault)
            XCTAssertEqual(opened.transport, keys.transport)
            XCTAssertEqual(opened.vault, keys.vault)
            XCTAssertNil(try EpochKeys.open(boxes, as: member.id, syncBox: member.sync, vaultBox: nil).vault, "locked: transport only")
        }
        XCTAssertEqual(try EpochKeys.open(boxes, as: "", syncBox: authority, vaultBox: authority).vault, keys.vault)
        XCTAssertThrowsError(try EpochKeys.open(boxes, as: "cccccccc-0000-4000-8000-000000000000", syncBox: a.sync, vaultBox: nil)) {
            XCTAssertEqual(($0 as? MembershipError)?.code, .epochKeys)
        }
        XCTAssertThrowsError(try EpochKeys.open(boxes, as: a.id, syncBox: b.sync, vaultBox: nil), "another device's box key")
    }

    /// A signer that boxes other keys to one member than it commits to is caught by that member.
    func testKeysOtherThanTheCommittedOnesAreRefused() throws {
        let a = try Member("aaaaaaaa-0000-4000-8000-000000000000"), b = try Member("bbbbbbbb-0000-4000-8000-000000000000")
        let honest = try EpochKeys.generate(epoch: 2).boxes(to: [a.recipient, b.recipient])
        let other = try EpochKeys.generate(epoch: 2).boxes(to: [b.recipient])
        let mixed = EpochKeyBoxes(epoch: 2, transportCommit: honest.transportCommit, vaultCommit: honest.vaultCommit,
                                  boxes: [honest.boxes[0], other.boxes[0]], proof: honest.proof)
        XCTAssertNoThrow(try EpochKeys.open(mixed, as: a.id, syncBox: a.sync, vaultBox: a.vault))
        XCTAssertThrowsError(try EpochKeys.open(mixed, as: b.id, syncBox: b.sync, vaultBox: nil)) {
            XCTAssertTrue("\($0)".contains("transport key boxed to this device is not the one its entry commits to"), "\($0)")
        }
        let mixedVault = EpochKeyBoxes(epoch: 2, transportCommit: honest.transportCommit, vaultCommit: honest.vaultCommit,
                                       boxes: [honest.boxes[0], EpochKeyBoxes.Box(recipient: b.id, transport: honest.boxes[1].transport, vault: other.boxes[0].vault)],
                                       proof: honest.proof)
        XCTAssertNoThrow(try EpochKeys.open(mixedVault, as: b.id, syncBox: b.sync, vaultBox: nil), "locked: the vault box is not opened")
        XCTAssertThrowsError(try EpochKeys.open(mixedVault, as: b.id, syncBox: b.sync, vaultBox: b.vault)) {
            XCTAssertTrue("\($0)".contains("vault key boxed to this device is not the one its entry commits to"), "\($0)")
        }
    }

    /// The proof is a keyed hash of the entry without its proof: the same once filled in,
    /// different under another key or for another entry.
    func testTheProofNeedsThePreviousVaultKeyAndCoversTheEntry() throws {
        let a = try Member("aaaaaaaa-0000-4000-8000-000000000000")
        let previous = try EpochKeys.generate(epoch: 1)
        let boxes = try EpochKeys.generate(epoch: 2).boxes(to: [a.recipient])
        let zero = [UInt8](repeating: 0, count: 32)
        let entry = RosterEntry(position: 4, previous: zero, signer: a.id, change: .rotate(keys: boxes, previous: RosterChange.PreviousKeys(transport: [1], vault: [2])))
        let proof = try EpochKeys.proof(of: entry, previousVault: try XCTUnwrap(previous.vault))
        let proved = RosterEntry(position: 4, previous: zero, signer: a.id, change: .rotate(keys: boxes.proved(proof), previous: RosterChange.PreviousKeys(transport: [1], vault: [2])))
        XCTAssertEqual(try EpochKeys.proof(of: proved, previousVault: try XCTUnwrap(previous.vault)), proof)
        XCTAssertNotEqual(try EpochKeys.proof(of: proved, previousVault: try SecretBytes.random(count: 32)), proof)
        let moved = RosterEntry(position: 5, previous: zero, signer: a.id, change: proved.change)
        XCTAssertNotEqual(try EpochKeys.proof(of: moved, previousVault: try XCTUnwrap(previous.vault)), proof)
    }
}
