@testable import CredctlKit
import XCTest

final class ComputedOnceTests: XCTestCase {
    func testTheValueIsComputedTheFirstTimeOnly() {
        let once = ComputedOnce<Int>()
        var computed = 0
        XCTAssertEqual(once.value { computed += 1; return 7 }, 7)
        XCTAssertEqual(once.value { computed += 1; return 8 }, 7)
        XCTAssertEqual(computed, 1)
    }
}
