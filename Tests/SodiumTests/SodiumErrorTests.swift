import XCTest
import Sodium

final class SodiumErrorTests: XCTestCase {
    func testEqualityIsByCode() {
        XCTAssertEqual(SodiumError(.malformed, "one"), SodiumError(.malformed, "two"))
        XCTAssertNotEqual(SodiumError(.malformed, "same"), SodiumError(.wrongPurpose, "same"))
    }

    func testDescriptionIsTheMessage() {
        let error = SodiumError(.invalidArgument, "A master key must be 32 bytes.")
        XCTAssertEqual(error.description, "A master key must be 32 bytes.")
        XCTAssertEqual("\(error)", "A master key must be 32 bytes.")
        XCTAssertEqual(error.code.rawValue, "invalidArgument")
    }
}
