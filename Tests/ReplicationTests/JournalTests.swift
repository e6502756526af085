import Replication
import SQLite
import XCTest

final class JournalTests: ReplicationTestCase {
    let device = ReplicationTestCase.device

    func entry(_ name: String, clock: UInt64, deleted: Bool = false, incarnation: Int64 = 0) -> JournalEntry {
        JournalEntry(recordName: name, kind: "host", version: RecordVersion(clock: clock, device: device), deleted: deleted, incarnation: incarnation)
    }

    func testRecordsAndListsOldestFirst() throws {
        try Journal.record(db, entry("host/b", clock: 20))
        try Journal.record(db, entry("host/a", clock: 30, deleted: true, incarnation: 2))
        try Journal.record(db, entry("host/c", clock: 10))
        XCTAssertEqual(try Journal.pending(db), [entry("host/c", clock: 10), entry("host/b", clock: 20),
                                                 entry("host/a", clock: 30, deleted: true, incarnation: 2)])
        XCTAssertEqual(try Journal.pendingCount(db), 3)
    }

    func testALaterEditReplacesThePendingEntry() throws {
        try Journal.record(db, entry("host/a", clock: 10))
        try Journal.record(db, entry("host/a", clock: 11, deleted: true))
        XCTAssertEqual(try Journal.pending(db), [entry("host/a", clock: 11, deleted: true)])
    }

    func testAcknowledgeClearsTheMatchingVersion() throws {
        try Journal.record(db, entry("host/a", clock: 10))
        try Journal.record(db, entry("host/b", clock: 11))
        try Journal.acknowledge(db, recordName: "host/a", version: RecordVersion(clock: 10, device: device))
        XCTAssertEqual(try Journal.pending(db), [entry("host/b", clock: 11)])
    }

    func testAcknowledgingAnOlderVersionKeepsANewerEdit() throws {
        try Journal.record(db, entry("host/a", clock: 10))
        let sent = RecordVersion(clock: 10, device: device)
        // The user edits again while the batch with version 10 is in flight.
        try Journal.record(db, entry("host/a", clock: 12))
        try Journal.acknowledge(db, recordName: "host/a", version: sent)
        XCTAssertEqual(try Journal.pending(db), [entry("host/a", clock: 12)])
    }

    func testAcknowledgeNeedsTheSameDeviceAndName() throws {
        try Journal.record(db, entry("host/a", clock: 10))
        try Journal.acknowledge(db, recordName: "host/a", version: RecordVersion(clock: 10, device: "another-device"))
        try Journal.acknowledge(db, recordName: "host/b", version: RecordVersion(clock: 10, device: device))
        XCTAssertEqual(try Journal.pendingCount(db), 1)
    }

    func testLargeClocksRoundTrip() throws {
        let clock = HybridLogicalClock.next(after: 0, nowMilliseconds: 1_700_000_000_000)
        try Journal.record(db, entry("host/a", clock: clock))
        XCTAssertEqual(try Journal.pending(db).first?.version.clock, clock)
        try Journal.acknowledge(db, recordName: "host/a", version: RecordVersion(clock: clock, device: device))
        XCTAssertEqual(try Journal.pendingCount(db), 0)
    }

    func testQuarantineIsKeptApart() throws {
        XCTAssertFalse(try Journal.isQuarantined(db, recordName: "host/a"))
        try Journal.quarantine(db, zone: "config", recordName: "host/a", reason: "unsupported format 9", bytes: [1, 2, 3],
                               at: RecordVersion(clock: 5, device: "remote"))
        XCTAssertTrue(try Journal.isQuarantined(db, recordName: "host/a"))
        XCTAssertFalse(try Journal.isQuarantined(db, recordName: "host/b"))
        XCTAssertEqual(try Journal.quarantineCount(db), 1)
        XCTAssertEqual(try Journal.pendingCount(db), 0, "quarantine does not create upload intent")
    }

    /// Asked before and after every command: the newest pending edit is found by the index the
    /// tracks' schemas add (`Journal.clockIndexMigration`), not by reading every pending edit of
    /// a device that has not synced in a while.
    func testTheNewestPendingEditIsFoundByIndex() throws {
        XCTAssertNil(try Journal.newestPending(db))
        try db.execute("CREATE INDEX replication_journal_clock ON replication_journal (version_clock)")
        for clock in [5, 900, 17] as [UInt64] { try Journal.record(db, entry("host.\(clock)", clock: clock)) }
        XCTAssertEqual(try Journal.newestPending(db), 900)
        let plan = try db.query("EXPLAIN QUERY PLAN SELECT max(version_clock) FROM replication_journal") { $0.text(3) ?? "" }.joined()
        XCTAssertTrue(plan.contains("USING COVERING INDEX replication_journal_clock"), plan)
    }

    func testEntryDefaultsToIncarnationZero() {
        XCTAssertEqual(JournalEntry(recordName: "n", kind: "k", version: RecordVersion(clock: 1, device: "d"), deleted: false).incarnation, 0)
    }
}
