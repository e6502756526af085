import Replication
import SQLite
import XCTest

final class LocalClockTests: ReplicationTestCase {
    let now: UInt64 = 1_700_000_000_000

    func testTicksAreStrictlyIncreasingWithinOneMillisecond() throws {
        let versions = try db.transaction {
            try (0..<5_000).map { _ in try LocalClock.tick(db, device: Self.device, nowMilliseconds: now) }
        }
        XCTAssertEqual(versions.first, RecordVersion(clock: now << 16, device: Self.device))
        XCTAssertEqual(versions.last?.clock, (now << 16) + 4_999)
        XCTAssertTrue(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 })
    }

    func testTheReadingPersists() throws {
        let first = try LocalClock.tick(db, device: Self.device, nowMilliseconds: now)
        let reopened = try Connection(path: directory + "/track.sqlite")
        let second = try LocalClock.tick(reopened, device: Self.device, nowMilliseconds: now - 1_000)
        XCTAssertEqual(second.clock, first.clock + 1, "a wall clock that went back does not rewind the stored clock")
    }

    func testObservingAVersionMovesTheClockPastIt() throws {
        let remote = RecordVersion(clock: (now + 10_000) << 16, device: "22222222-2222-4222-8222-222222222222")
        try LocalClock.observe(db, remote)
        let local = try LocalClock.tick(db, device: Self.device, nowMilliseconds: now)
        XCTAssertGreaterThan(local, remote)
        XCTAssertEqual(local.clock, remote.clock + 1)
    }

    func testObservingAnOlderVersionChangesNothing() throws {
        _ = try LocalClock.tick(db, device: Self.device, nowMilliseconds: now)
        try LocalClock.observe(db, RecordVersion(clock: 5, device: "x"))
        XCTAssertEqual(try LocalClock.tick(db, device: Self.device, nowMilliseconds: now).clock, (now << 16) + 1)
    }

    func testARolledBackTickIsForgotten() throws {
        struct Abort: Error {}
        _ = try LocalClock.tick(db, device: Self.device, nowMilliseconds: now)
        XCTAssertThrowsError(try db.transaction {
            _ = try LocalClock.tick(db, device: Self.device, nowMilliseconds: now + 5)
            throw Abort()
        })
        XCTAssertEqual(try LocalClock.tick(db, device: Self.device, nowMilliseconds: now).clock, (now << 16) + 1)
    }
}
