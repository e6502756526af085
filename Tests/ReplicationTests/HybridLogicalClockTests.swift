import Replication
import XCTest

final class HybridLogicalClockTests: XCTestCase {
    let now: UInt64 = 1_700_000_000_000

    func testWallClockAheadOfTheLastReadingWins() {
        let last = (now - 5) << 16 | 7
        XCTAssertEqual(HybridLogicalClock.next(after: last, nowMilliseconds: now), now << 16)
        XCTAssertEqual(HybridLogicalClock.next(after: 0, nowMilliseconds: now), now << 16)
    }

    func testWallClockBehindOrEqualCountsOnFromTheLastReading() {
        let last = (now + 60_000) << 16
        XCTAssertEqual(HybridLogicalClock.next(after: last, nowMilliseconds: now), last + 1)
        XCTAssertEqual(HybridLogicalClock.next(after: now << 16, nowMilliseconds: now), (now << 16) + 1, "same millisecond")
        XCTAssertEqual(HybridLogicalClock.next(after: (now << 16) | 0xFFFF, nowMilliseconds: now), (now + 1) << 16,
                       "a full counter carries into the milliseconds")
    }

    func testNeverDecreases() {
        var last: UInt64 = 0
        // Wall time jumping forwards and backwards, and repeating.
        for wall in [now, now, now - 10_000, now + 1, now + 1, 0, now + 2, now - 1] {
            let next = HybridLogicalClock.next(after: last, nowMilliseconds: wall)
            XCTAssertGreaterThan(next, last, "wall \(wall)")
            last = next
        }
    }

    func testReadingExposesItsMilliseconds() {
        let reading = HybridLogicalClock.next(after: (now << 16) + 3, nowMilliseconds: now)
        XCTAssertEqual(RecordVersion(clock: reading, device: "d").milliseconds, now)
        XCTAssertEqual(HybridLogicalClock.counterBits, 16)
    }

    func testWallMillisecondsIsPlausible() {
        let reading = HybridLogicalClock.wallMilliseconds()
        XCTAssertGreaterThan(reading, 1_600_000_000_000, "after September 2020")
        XCTAssertLessThan(reading, 4_000_000_000_000)
        XCTAssertLessThan(reading << 16, UInt64(Int64.max), "readings fit the signed column they are stored in")
    }
}
