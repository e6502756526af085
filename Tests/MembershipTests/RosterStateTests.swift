import Membership
import Replication
import Sodium
import XCTest

/// The roster verifies from its genesis: members, revocations and epochs follow only entries
/// that keep every rule, and the first that breaks one names its position and the rule.
final class RosterStateTests: RosterTestCase {
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
        // The revocation's hash is random; below 2^-20 of the range (one run in a million) no
        // attempt can win, and the test has nothing to show.
        var attempt: UInt32 = 0
        while !RosterEntry.hash(ofObject: race).lexicographicallyPrecedes(RosterEntry.hash(ofObject: revocation)) {
            attempt += 1
            guard attempt < 1 << 20 else { throw XCTSkip("the revocation hashes below every attempt") }
            let counter = withUnsafeBytes(of: attempt.bigEndian) { Array($0) }
            race = object(.rotate(keys: keys(4, ["", a.id, c.id, d.id]), previous: RosterChange.PreviousKeys(transport: counter, vault: [1])), by: d)
        }
        let held = try withD.advanced(byOneOf: [race, revocation])
        XCTAssertEqual(held.object, revocation)
        XCTAssertNil(held.state.members[d.id])
    }
}
