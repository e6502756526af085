import XCTest
import Sodium

final class RandomTests: XCTestCase {
    func testBytes() {
        XCTAssertEqual(Random.bytes(count: 0), [])
        let first = Random.bytes(count: 32)
        XCTAssertEqual(first.count, 32)
        XCTAssertNotEqual(first, Random.bytes(count: 32))
    }

    func testUniformStaysInRange() {
        var seen = Set<UInt32>()
        for _ in 0..<1_000 {
            let value = Random.uniform(6)
            XCTAssertLessThan(value, 6)
            seen.insert(value)
        }
        XCTAssertEqual(seen.count, 6, "1000 draws of 0..<6 should hit every value")
        XCTAssertEqual(Random.uniform(1), 0)
    }
}
