import Membership
import XCTest

/// The codes a user compares and types when approving a device.
final class JoinCodeTests: XCTestCase {
    private let genesis = [UInt8](repeating: 3, count: 32)

    func testCodesHaveTheirShapeAndCoverWhatTheyName() {
        let code = JoinCode.verification(genesis: genesis, request: [1, 2, 3])
        XCTAssertNotNil(code.wholeMatch(of: /[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/), code)
        XCTAssertEqual(JoinCode.verification(genesis: genesis, request: [1, 2, 3]), code, "the same on both devices")
        XCTAssertNotEqual(JoinCode.verification(genesis: [UInt8](repeating: 4, count: 32), request: [1, 2, 3]), code, "another vault's genesis")
        XCTAssertNotEqual(JoinCode.verification(genesis: genesis, request: [1, 2, 4]), code, "another request")
        let confirmation = JoinCode.confirmation(genesis: genesis, addEntry: [5])
        XCTAssertNotNil(confirmation.wholeMatch(of: /[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/), confirmation)
        XCTAssertNotEqual(JoinCode.confirmation(genesis: genesis, addEntry: [6]), confirmation)
    }

    func testTypedCodesMatchWhateverTheirCaseSeparatorsOrLookAlikes() {
        let code = "7K3M-Q9ZD-01AB"
        for typed in ["7K3M-Q9ZD-01AB", "7k3mq9zd01ab", " 7K3M Q9ZD OlAB\n", "7K3M-Q9ZD-O1AB"] {
            XCTAssertTrue(JoinCode.matches(typed, code), typed)
        }
        for typed in ["7K3M-Q9ZD-01AC", "7K3M-Q9ZD-01A", "7K3M-Q9ZD-01ABX", "7K3M-Q9ZD-01AU", ""] {
            XCTAssertFalse(JoinCode.matches(typed, code), typed)
        }
    }
}
