import Foundation
import Membership
import Replication
import Sodium
import XCTest

/// The roster as a device reads it from a real directory remote: from its pinned genesis, past
/// what it verified before; junk at the next position passed over (an entry beside it read); a
/// racing candidate at the newest position holding by the smaller hash; a second history below
/// it a fork; and a remote showing less than was seen refused.
final class RosterReaderTests: RosterTestCase {
    private var remote: DirectoryRemote!
    private var root = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        root = NSTemporaryDirectory() + "roster-reader-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        remote = DirectoryRemote(root: root)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    private func publish(_ objects: [[UInt8]]) throws {
        for (position, object) in objects.enumerated() { _ = try remote.createOnly(RosterEntry.objectName(UInt64(position)), bytes: object) }
    }

    private var genesis: [UInt8] { RosterEntry.hash(ofObject: objects[0]) }

    func testReadsPastWhatWasVerifiedAndRefusesLess() throws {
        let state = try honestHistory()
        try publish(objects)
        let first = try RosterReader.read(from: remote, pinned: genesis, known: [])
        XCTAssertEqual(first.state.head, state.head)
        XCTAssertEqual(try RosterReader.read(from: remote, pinned: genesis, known: Array(objects.prefix(2))).objects, objects)
        try remote.delete(RosterEntry.objectName(4))
        XCTAssertThrowsError(try RosterReader.read(from: remote, pinned: genesis, known: objects)) {
            XCTAssertEqual(($0 as? MembershipError)?.code, .rosterRolledBack)
        }
        XCTAssertThrowsError(try RosterReader.read(from: remote, pinned: [UInt8](repeating: 7, count: 32), known: [])) {
            XCTAssertTrue(($0 as? MembershipError)?.message.contains("not the one this device joined") == true)
        }
    }

    func testJunkAtTheNextPositionIsPassedOverAndAnEntryBesideItIsRead() throws {
        let state = try honestHistory()
        try publish(objects)
        _ = try remote.createOnly(RosterEntry.objectName(5), bytes: Array("junk that is no entry".utf8))
        XCTAssertEqual(try RosterReader.read(from: remote, pinned: genesis, known: []).state.length, 5, "junk stops nothing")
        let next = object(.rotate(keys: keys(4, ["", a.id, c.id]), previous: previousKeys), by: a)
        _ = try remote.createOnly(RosterReader.alternateName(5, object: next), bytes: next)
        let read = try RosterReader.read(from: remote, pinned: genesis, known: [])
        XCTAssertEqual(read.state.length, 6)
        XCTAssertEqual(read.objects.last, next)
        XCTAssertEqual(state.length, 5)
    }

    func testTheNewestPositionGoesToTheSmallerHashAndAnOlderOneIsFinal() throws {
        _ = try honestHistory()
        try publish(objects)
        let previousHead = RosterEntry.hash(ofObject: objects[4])
        let mine = object(.rotate(keys: keys(4, ["", a.id, c.id]), previous: previousKeys), by: a, position: 5, previous: previousHead)
        let theirs = object(.rotate(keys: keys(4, ["", a.id, c.id]), previous: RosterChange.PreviousKeys(transport: [1], vault: [1])), by: c,
                            position: 5, previous: previousHead)
        let smaller = RosterEntry.hash(ofObject: mine).lexicographicallyPrecedes(RosterEntry.hash(ofObject: theirs)) ? mine : theirs
        _ = try remote.createOnly(RosterEntry.objectName(5), bytes: mine)
        _ = try remote.createOnly("roster/5.sync-conflict-20261201-120000-ABCDEFG.entry", bytes: theirs)
        // A device that had accepted its own entry takes the smaller hash while nothing follows it.
        XCTAssertEqual(try RosterReader.read(from: remote, pinned: genesis, known: objects + [mine]).objects.last, smaller)
        XCTAssertEqual(try RosterReader.read(from: remote, pinned: genesis, known: []).objects.last, smaller)
        // Once an entry follows, another verifying history below it is a fork.
        objects.append(smaller)
        let after = object(.rotate(keys: keys(5, ["", a.id, c.id]), previous: previousKeys), by: a)
        objects.append(after)
        _ = try remote.createOnly(RosterEntry.objectName(6), bytes: after)
        XCTAssertThrowsError(try RosterReader.read(from: remote, pinned: genesis, known: objects)) {
            XCTAssertTrue(($0 as? MembershipError)?.message.contains("two histories from position 5") == true, "\($0)")
        }
    }
}
