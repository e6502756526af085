import Membership
import Replication
import Sodium
import XCTest

/// Roster entries of every kind read back exactly, and anything not one canonical entry is
/// refused with the rule it broke.
final class RosterEntryTests: XCTestCase {
    private func bytes(_ count: Int, _ seed: UInt8) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: Int(seed) &* 31 &+ $0) } }

    private func device(_ id: String) -> DevicePublicKeys {
        DevicePublicKeys(id: id, signing: bytes(32, 1), roster: bytes(32, 2), syncBox: bytes(32, 3), vaultBox: bytes(32, 4), sealedName: bytes(60, 5))
    }

    private func keys(_ epoch: UInt32, recipients: [String]) -> EpochKeyBoxes {
        EpochKeyBoxes(epoch: epoch, transportCommit: bytes(32, 6), vaultCommit: bytes(32, 7), boxes: recipients.map { EpochKeyBoxes.Box(recipient: $0, transport: bytes(80, 7), vault: bytes(80, 8)) },
                      proof: epoch == 1 ? [UInt8](repeating: 0, count: 32) : bytes(32, 9))
    }

    private let a = "aaaaaaaa-0000-4000-8000-000000000000", b = "bbbbbbbb-0000-4000-8000-000000000000"

    private var everyKind: [RosterEntry] {
        let authority = RosterChange.Authority(signing: bytes(32, 10), box: bytes(32, 11))
        let previous = RosterChange.PreviousKeys(transport: bytes(72, 12), vault: bytes(72, 13))
        let zero = [UInt8](repeating: 0, count: 32)
        return [
            RosterEntry(position: 0, previous: zero, signer: a, change: .genesis(vaultID: "6d1f7c1e-4b8a-4f0e-9a51-1b2c3d4e5f60", creator: device(a), recovery: authority,
                                                                                keys: keys(1, recipients: ["", a]))),
            RosterEntry(position: 1, previous: bytes(32, 14), signer: a, change: .add(device: device(b), request: bytes(32, 15), keys: keys(1, recipients: [b]))),
            RosterEntry(position: 2, previous: bytes(32, 16), signer: "", change: .add(device: device("c"), request: zero, keys: keys(1, recipients: ["c"]))),
            RosterEntry(position: 3, previous: bytes(32, 17), signer: a, change: .revoke(devices: [RosterChange.Revocation(device: b, cutoffs: [
                RosterChange.Cutoff(zone: "config", sequence: 41, batchHash: bytes(32, 18)), RosterChange.Cutoff(zone: "secrets", sequence: 7, batchHash: bytes(32, 19)),
            ])], keys: keys(2, recipients: ["", a]), previous: previous, recovery: nil)),
            RosterEntry(position: 4, previous: bytes(32, 20), signer: a, change: .revoke(devices: [RosterChange.Revocation(device: "c", cutoffs: [])],
                                                                                         keys: keys(3, recipients: ["", a]), previous: previous, recovery: authority)),
            RosterEntry(position: 5, previous: bytes(32, 21), signer: a, change: .rotate(keys: keys(4, recipients: ["", a]), previous: previous)),
            RosterEntry(position: 6, previous: bytes(32, 22), signer: a, change: .recovery(authority: authority, keys: keys(5, recipients: ["", a]), previous: previous)),
        ]
    }

    func testEveryKindReadsBackExactly() throws {
        for entry in everyKind {
            XCTAssertEqual(try RosterEntry.decode(entry.encoded), entry, "kind \(entry.change.kind)")
        }
        XCTAssertEqual(RosterEntry.objectName(12), "roster/12.entry")
        XCTAssertNotEqual(RosterEntry.hash(ofObject: [1]), RosterEntry.hash(ofObject: [2]))
    }

    /// Cut short, extended, or any byte changed: refused, or (a byte inside a key or a hash) a
    /// different entry, never an error other than `malformedRoster` and never the same entry.
    func testAlteredEntriesAreRefusedOrDifferent() throws {
        for entry in everyKind {
            let encoded = entry.encoded
            for bad in [Array(encoded.dropLast()), encoded + [0], Array(encoded.prefix(10))] {
                XCTAssertThrowsError(try RosterEntry.decode(bad)) { XCTAssertEqual(($0 as? MembershipError)?.code, .malformedRoster) }
            }
            for index in stride(from: 0, to: encoded.count, by: 7) {
                var altered = encoded
                altered[index] ^= 0x20
                do {
                    let decoded = try RosterEntry.decode(altered)
                    XCTAssertNotEqual(decoded, entry, "byte \(index)")
                } catch {
                    XCTAssertEqual((error as? MembershipError)?.code, .malformedRoster, "\(error)")
                }
            }
        }
    }

    func testEntriesBreakingARuleSayWhich() throws {
        let zero = [UInt8](repeating: 0, count: 32)
        let unordered = RosterEntry(position: 1, previous: zero, signer: a, change: .add(device: device(b), request: zero, keys: keys(1, recipients: [b, a])))
        let repeated = RosterEntry(position: 1, previous: zero, signer: a, change: .add(device: device(b), request: zero, keys: keys(1, recipients: [b, b])))
        let foreignSigner = RosterEntry(position: 1, previous: zero, signer: "caf\u{e9}", change: .add(device: device(b), request: zero, keys: keys(1, recipients: [b])))
        let epochZero = RosterEntry(position: 1, previous: zero, signer: a, change: .rotate(keys: keys(0, recipients: [a]),
                                                                                            previous: RosterChange.PreviousKeys(transport: [1], vault: [2])))
        let twice = RosterEntry(position: 1, previous: zero, signer: a, change: .revoke(devices: [RosterChange.Revocation(device: b, cutoffs: []),
            RosterChange.Revocation(device: b, cutoffs: [])], keys: keys(2, recipients: [a]), previous: RosterChange.PreviousKeys(transport: [1], vault: [2]), recovery: nil))
        let zones = RosterEntry(position: 1, previous: zero, signer: a, change: .revoke(devices: [RosterChange.Revocation(device: b, cutoffs: [
            RosterChange.Cutoff(zone: "secrets", sequence: 1, batchHash: zero), RosterChange.Cutoff(zone: "config", sequence: 1, batchHash: zero)])],
            keys: keys(2, recipients: [a]), previous: RosterChange.PreviousKeys(transport: [1], vault: [2]), recovery: nil))
        for (entry, rule) in [(unordered, "recipients are not in ascending order"), (repeated, "recipients are not in ascending order"),
                              (twice, "revoked devices are not in ascending order, or one repeats"), (zones, "zones are not in ascending order"),
                              (foreignSigner, "its signer is not a device id"), (epochZero, "epochs start at 1")] {
            XCTAssertThrowsError(try RosterEntry.decode(entry.encoded)) { XCTAssertTrue("\($0)".contains(rule), "\($0)") }
        }
        var unknownKind = everyKind[5].encoded
        unknownKind[43] = 9
        XCTAssertThrowsError(try RosterEntry.decode(unknownKind)) { XCTAssertTrue("\($0)".contains("kind 9 is unknown"), "\($0)") }
        XCTAssertThrowsError(try RosterEntry.decode([UInt8](repeating: 0, count: RosterEntry.maximumBytes + 1)))
    }
}
