import Replication
import XCTest

final class RecordVersionTests: XCTestCase {
    func testOrdersByClockFirst() {
        XCTAssertLessThan(RecordVersion(clock: 1, device: "b"), RecordVersion(clock: 2, device: "a"))
        XCTAssertGreaterThan(RecordVersion(clock: 3, device: "a"), RecordVersion(clock: 2, device: "z"))
    }

    func testBreaksClockTiesByDevice() {
        let a = RecordVersion(clock: 5, device: "aaaaaaaa-0000-4000-8000-000000000000")
        let b = RecordVersion(clock: 5, device: "bbbbbbbb-0000-4000-8000-000000000000")
        XCTAssertLessThan(a, b)
        XCTAssertFalse(b < a)
        XCTAssertEqual([b, a].max(), b, "every device picks the same winner")
    }

    func testEqualityAndDescription() {
        XCTAssertEqual(RecordVersion(clock: 7, device: "d"), RecordVersion(clock: 7, device: "d"))
        XCTAssertNotEqual(RecordVersion(clock: 7, device: "d"), RecordVersion(clock: 7, device: "e"))
        XCTAssertFalse(RecordVersion(clock: 7, device: "d") < RecordVersion(clock: 7, device: "d"))
        XCTAssertEqual(RecordVersion(clock: 7, device: "d").description, "7@d")
        XCTAssertEqual(RecordVersion(clock: (42 << 16) | 9, device: "d").milliseconds, 42)
    }
}
