import Membership
import Replication
import Sodium
import XCTest

/// Three devices, a recovery authority and roster objects signed as each: the fixture of the
/// roster's tests.
class RosterTestCase: XCTestCase {
    struct Device {
        let id: String
        let signing: SigningKeyPair
        let roster: SigningKeyPair
        let keys: DevicePublicKeys

        init(_ id: String) throws {
            self.id = id
            signing = try SigningKeyPair.generate()
            roster = try SigningKeyPair.generate()
            keys = DevicePublicKeys(id: id, signing: signing.publicKey, roster: roster.publicKey, syncBox: try BoxKeyPair.generate().publicKey,
                                    vaultBox: try BoxKeyPair.generate().publicKey, sealedName: [1, 2, 3])
        }
    }

    let vaultID = "6d1f7c1e-4b8a-4f0e-9a51-1b2c3d4e5f60"
    let zero = [UInt8](repeating: 0, count: 32)
    var a: Device!, b: Device!, c: Device!
    var recovery: SigningKeyPair!
    var authority: RosterChange.Authority!
    var objects: [[UInt8]] = []

    override func setUpWithError() throws {
        a = try Device("aaaaaaaa-0000-4000-8000-000000000000")
        b = try Device("bbbbbbbb-0000-4000-8000-000000000000")
        c = try Device("cccccccc-0000-4000-8000-000000000000")
        recovery = try SigningKeyPair.generate()
        authority = RosterChange.Authority(signing: recovery.publicKey, box: try BoxKeyPair.generate().publicKey)
    }

    func keys(_ epoch: UInt32, _ recipients: [String]) -> EpochKeyBoxes {
        EpochKeyBoxes(epoch: epoch, transportCommit: zero, vaultCommit: zero, boxes: recipients.map { EpochKeyBoxes.Box(recipient: $0, transport: [UInt8](repeating: 5, count: 80),
                                                                                             vault: [UInt8](repeating: 6, count: 80)) }, proof: zero)
    }

    var previousKeys: RosterChange.PreviousKeys { RosterChange.PreviousKeys(transport: [7], vault: [8]) }

    /// The object of `change` at the next position, signed by `signer` (nil: the recovery authority).
    func object(_ change: RosterChange, by signer: Device?, key: SigningKeyPair? = nil, position: UInt64? = nil, previous: [UInt8]? = nil) -> [UInt8] {
        let at = position ?? UInt64(objects.count)
        let before = previous ?? (objects.last.map(RosterEntry.hash(ofObject:)) ?? zero)
        let entry = RosterEntry(position: at, previous: before, signer: signer?.id ?? "", change: change)
        let genesis = objects.first.map(RosterEntry.hash(ofObject:)) ?? zero
        let frame = SignedFrame(signer: signer?.id ?? "", epoch: 1, rosterLength: at, rosterHead: before, previous: zero, body: entry.encoded)
        return frame.signed(by: key ?? signer?.roster ?? recovery, at: SignedFrame.Place(vaultID: vaultID, genesis: at == 0 ? zero : genesis,
                                                                                          objectName: RosterEntry.objectName(at)))
    }

    /// Genesis by A, B approved by A, C joining by recovery key, B revoked, a rotation.
    func honestHistory() throws -> RosterState {
        objects = [object(.genesis(vaultID: vaultID, creator: a.keys, recovery: authority, keys: keys(1, ["", a.id])), by: a)]
        objects.append(object(.add(device: b.keys, request: [UInt8](repeating: 9, count: 32), keys: keys(1, [b.id])), by: a))
        objects.append(object(.add(device: c.keys, request: zero, keys: keys(1, [c.id])), by: nil))
        objects.append(object(.revoke(devices: [RosterChange.Revocation(device: b.id, cutoffs: [RosterChange.Cutoff(zone: "config", sequence: 3, batchHash: zero)])],
                                      keys: keys(2, ["", a.id, c.id]), previous: previousKeys, recovery: nil), by: c))
        objects.append(object(.rotate(keys: keys(3, ["", a.id, c.id]), previous: previousKeys), by: a))
        var state = try RosterState(genesis: objects[0], pinned: RosterEntry.hash(ofObject: objects[0]))
        for object in objects.dropFirst() { try state.append(object) }
        return state
    }

}
