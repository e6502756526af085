import Membership
import Replication
import Sodium
import XCTest

/// The roster verifies from its genesis: members, revocations and epochs follow only entries
/// that keep every rule, and the first that breaks one names its position and the rule.
final class RosterStateTests: XCTestCase {
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

    private let vaultID = "6d1f7c1e-4b8a-4f0e-9a51-1b2c3d4e5f60"
    let zero = [UInt8](repeating: 0, count: 32)
    var a: Device!, b: Device!, c: Device!
    private var recovery: SigningKeyPair!
    private var authority: RosterChange.Authority!
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

    func testAnHonestHistoryVerifies() throws {
        let state = try honestHistory()
        XCTAssertEqual(Set(state.members.keys), [a.id, c.id])
        XCTAssertEqual(state.revoked[b.id]?.first?.sequence, 3)
        XCTAssertEqual(state.epoch, 3)
        XCTAssertEqual(state.length, 5)
        XCTAssertEqual(state.head, RosterEntry.hash(ofObject: objects[4]))
        XCTAssertEqual(state.genesis, RosterEntry.hash(ofObject: objects[0]))
    }

    private func assertRefused(_ object: [UInt8], after state: RosterState, _ rule: String, file: StaticString = #filePath, line: UInt = #line) {
        var copy = state
        XCTAssertThrowsError(try copy.append(object), file: file, line: line) {
            XCTAssertEqual(($0 as? MembershipError)?.code, .rosterDoesNotVerify, file: file, line: line)
            XCTAssertTrue("\($0)".contains(rule), "\($0)", file: file, line: line)
        }
        XCTAssertEqual(copy.length, state.length, "nothing applied", file: file, line: line)
    }

    func testEntriesThatBreakARuleAreRefusedWithIt() throws {
        let state = try honestHistory()
        let rotate = RosterChange.rotate(keys: keys(4, ["", a.id, c.id]), previous: previousKeys)
        let d = try Device("dddddddd-0000-4000-8000-000000000000")
        assertRefused(object(rotate, by: b), after: state, "its signer \(b.id) is not a member")
        assertRefused(object(rotate, by: nil), after: state, "the recovery authority may only add a device")
        assertRefused(object(rotate, by: a, key: c.roster), after: state, "its signature does not verify")
        assertRefused(object(rotate, by: a, key: a.signing), after: state, "its signature does not verify")
        assertRefused(object(rotate, by: a, position: 6), after: state, "it does not follow the entry before it")
        assertRefused(object(rotate, by: a, previous: zero), after: state, "it does not follow the entry before it")
        assertRefused(object(.rotate(keys: keys(4, ["", a.id]), previous: previousKeys), by: a), after: state, "boxed to exactly the members")
        assertRefused(object(.rotate(keys: keys(6, ["", a.id, c.id]), previous: previousKeys), by: a), after: state, "is not the next one")
        assertRefused(object(.add(device: b.keys, request: zero, keys: keys(3, [b.id])), by: a), after: state, "was added before")
        assertRefused(object(.add(device: d.keys, request: zero, keys: keys(2, [d.id])), by: a), after: state, "the current epoch is not boxed")
        assertRefused(object(.revoke(devices: [RosterChange.Revocation(device: a.id, cutoffs: [])], keys: keys(4, ["", c.id]), previous: previousKeys, recovery: nil),
                             by: a), after: state, "which is not another member")
        assertRefused(object(.genesis(vaultID: vaultID, creator: d.keys, recovery: authority, keys: keys(1, ["", d.id])), by: a), after: state, "a second genesis")
        assertRefused([1, 2, 3], after: state, "The roster does not verify at entry 5")
        let proved = keys(3, [d.id]).proved([UInt8](repeating: 1, count: 32))
        assertRefused(object(.add(device: d.keys, request: zero, keys: proved), by: a), after: state, "the current epoch is not boxed")
        // Box keys no sealed box can be made to (a low-order point) would block every later epoch.
        let unusable = DevicePublicKeys(id: d.id, signing: d.keys.signing, roster: d.keys.roster, syncBox: zero, vaultBox: d.keys.vaultBox, sealedName: [1])
        assertRefused(object(.add(device: unusable, request: zero, keys: keys(3, [d.id])), by: a), after: state, "box keys are not usable keys")
        var copy = state
        try copy.append(object(.add(device: d.keys, request: zero, keys: keys(3, [d.id])), by: nil))
        XCTAssertNotNil(copy.members[d.id], "the recovery authority adds a device")
    }

    func testAGenesisOtherThanThePinnedOneIsRefused() throws {
        _ = try honestHistory()
        XCTAssertThrowsError(try RosterState(genesis: objects[0], pinned: zero)) {
            XCTAssertTrue("\($0)".contains("the genesis is not the one this device joined"), "\($0)")
        }
        XCTAssertThrowsError(try RosterState(genesis: objects[1], pinned: nil)) {
            XCTAssertTrue("\($0)".contains("the first entry is not a genesis"), "\($0)")
        }
    }
}

extension RosterStateTests {
    /// Two verifying entries for one position: the smaller hash holds, the same for every
    /// device whatever order it finds them in; an entry that does not verify is passed over.
    func testOfTwoRacingEntriesTheSmallerHashHolds() throws {
        let state = try honestHistory()
        let first = object(.rotate(keys: keys(4, ["", a.id, c.id]), previous: previousKeys), by: a)
        let second = object(.rotate(keys: keys(4, ["", a.id, c.id]), previous: RosterChange.PreviousKeys(transport: [1], vault: [1])), by: c)
        let smaller = RosterEntry.hash(ofObject: first).lexicographicallyPrecedes(RosterEntry.hash(ofObject: second)) ? first : second
        XCTAssertEqual(try state.advanced(byOneOf: [first, second]).object, smaller)
        XCTAssertEqual(try state.advanced(byOneOf: [second, first, [9, 9]]).object, smaller)
        XCTAssertEqual(try state.advanced(byOneOf: [first, second]).state.length, 6)
        XCTAssertThrowsError(try state.advanced(byOneOf: [[9, 9]])) { XCTAssertEqual(($0 as? MembershipError)?.code, .rosterDoesNotVerify) }
    }

    /// A device racing its own revocation loses, whatever its entry's hash.
    func testARevokedDeviceCannotRaceItsRevocation() throws {
        let state = try honestHistory()
        let d = try Device("dddddddd-0000-4000-8000-000000000000")
        var withD = state
        try withD.append(object(.add(device: d.keys, request: zero, keys: keys(3, [d.id])), by: a))
        objects.append(object(.add(device: d.keys, request: zero, keys: keys(3, [d.id])), by: a))
        let revocation = object(.revoke(devices: [RosterChange.Revocation(device: d.id, cutoffs: [])], keys: keys(4, ["", a.id, c.id]),
                                        previous: previousKeys, recovery: nil), by: a)
        // D tries entries until one hashes below the revocation.
        var race = object(.rotate(keys: keys(4, ["", a.id, c.id, d.id]), previous: previousKeys), by: d)
        var attempt: UInt8 = 0
        while !RosterEntry.hash(ofObject: race).lexicographicallyPrecedes(RosterEntry.hash(ofObject: revocation)) {
            attempt += 1
            race = object(.rotate(keys: keys(4, ["", a.id, c.id, d.id]), previous: RosterChange.PreviousKeys(transport: [attempt], vault: [1])), by: d)
        }
        let held = try withD.advanced(byOneOf: [race, revocation])
        XCTAssertEqual(held.object, revocation)
        XCTAssertNil(held.state.members[d.id])
    }
}
