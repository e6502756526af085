import Foundation
import Replication
import Sodium
import XCTest
@testable import SecretTrack

final class SecretStoreIncarnationTests: SecretTestCase {
    var store: SecretStore!
    let reference = SecretTestCase.reference()

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try makeStore()
    }

    override func tearDownWithError() throws {
        store = nil
        try super.tearDownWithError()
    }

    func testDeleteLeavesAMarkerForTheIncarnation() throws {
        let item = try store.put(try SecretBytes(utf8: "one"), for: reference)
        let marker = try XCTUnwrap(try store.delete(reference))
        XCTAssertEqual(marker.reference, reference)
        XCTAssertEqual(marker.incarnation, 1)
        XCTAssertGreaterThan(marker.version, item.version)
        XCTAssertEqual(try store.state(of: reference), .deleted(marker))
        let error = assertSecretError(.deleted, try store.read(reference))
        XCTAssertEqual(error?.message, "The secret \(reference) was deleted.")
        XCTAssertEqual(try store.items(), [])
    }

    func testAnIncarnationAtTheTopOfTheRangeIsRefusedNotTrapped() throws {
        try store.put(try SecretBytes(utf8: "one"), for: reference)
        try store.delete(reference)
        // What an older build could have stored from a hostile envelope.
        try rawConnection().run("UPDATE deletion_markers SET incarnation = ?", [Int64.max])
        let error = assertSecretError(.invalid, try store.put(try SecretBytes(utf8: "two"), for: reference))
        XCTAssertEqual(error?.message, "The secret \(reference) has an incarnation (9223372036854775807) outside the range a new one can follow; remove its record and add it again.")
        XCTAssertEqual(try SecretStore.incarnation(after: Envelope.maximumIncarnation - 1, of: "x"), Envelope.maximumIncarnation)
        XCTAssertThrowsError(try SecretStore.incarnation(after: -1, of: "x"))
    }

    func testPutAfterDeleteStartsTheNextIncarnation() throws {
        try store.put(try SecretBytes(utf8: "one"), for: reference)
        try store.delete(reference)
        let second = try store.put(try SecretBytes(utf8: "two"), for: reference)
        XCTAssertEqual(second.incarnation, 2)
        XCTAssertEqual(try store.state(of: reference), .present(second))
        XCTAssertTrue(try store.read(reference) == (try SecretBytes(utf8: "two")))

        try store.delete(reference)
        let third = try store.put(try SecretBytes(utf8: "three"), for: reference)
        XCTAssertEqual(third.incarnation, 3)
        XCTAssertEqual(try store.counts().deletionMarkers, 2)
    }

    func testReplacingAPresentBodyKeepsTheIncarnationAndAdvancesTheVersion() throws {
        let first = try store.put(try SecretBytes(utf8: "one"), for: reference)
        let second = try store.put(try SecretBytes(utf8: "two"), for: reference)
        XCTAssertEqual(second.incarnation, first.incarnation)
        XCTAssertGreaterThan(second.version, first.version)
        XCTAssertTrue(try store.read(reference) == (try SecretBytes(utf8: "two")))
        XCTAssertEqual(try store.counts().deletionMarkers, 0)
    }

    func testDeletingWhatIsAbsentReturnsNil() throws {
        XCTAssertNil(try store.delete(reference))
        try store.put(try SecretBytes(utf8: "one"), for: reference)
        XCTAssertNotNil(try store.delete(reference))
        XCTAssertNil(try store.delete(reference), "a second delete finds nothing")
        XCTAssertEqual(try store.counts().deletionMarkers, 1)
    }

    func testMarkersSurviveReopen() throws {
        try store.put(try SecretBytes(utf8: "one"), for: reference)
        let marker = try XCTUnwrap(try store.delete(reference))
        store = nil

        store = try SecretStore.open(at: databasePath)
        XCTAssertEqual(try store.state(of: reference), .deleted(marker))
        assertSecretError(.deleted, try store.read(reference))
        try store.unlock(try Self.passphrase())
        XCTAssertEqual(try store.put(try SecretBytes(utf8: "two"), for: reference).incarnation, 2)
    }

    func testDeletingASyncableItemJournalsTheDeletion() throws {
        try store.put(try SecretBytes(utf8: "one"), for: reference, availability: .syncable)
        let marker = try XCTUnwrap(try store.delete(reference))
        XCTAssertEqual(try store.queue.read { try Journal.pending($0) },
                       [JournalEntry(recordName: reference, kind: "secret", version: marker.version, deleted: true, incarnation: 1)])
        let again = try store.put(try SecretBytes(utf8: "two"), for: reference, availability: .syncable)
        XCTAssertEqual(try store.queue.read { try Journal.pending($0) },
                       [JournalEntry(recordName: reference, kind: "secret", version: again.version, deleted: false, incarnation: 2)])
    }

    /// A device-only incarnation never left this device: its deletion keeps a marker here (reads
    /// say "deleted") but sends nothing, so it can never delete another device's own life.
    func testDeletingADeviceOnlyItemKeepsItsMarkerHereAndSendsNothing() throws {
        try store.put(try SecretBytes(utf8: "one"), for: reference)
        XCTAssertEqual(try store.delete(reference)?.incarnation, 1)
        XCTAssertEqual(try store.counts().pendingChanges, 0)
        XCTAssertEqual(try store.counts().deletionMarkers, 1)
        guard case .deleted = try store.state(of: reference) else { return XCTFail("reads as deleted") }
    }

    func testDeleteWorksWhileLocked() throws {
        try store.put(try SecretBytes(utf8: "one"), for: reference)
        store.lock()
        XCTAssertEqual(try store.delete(reference)?.incarnation, 1)
        XCTAssertEqual(try store.counts().deletionMarkers, 1)
    }
}
