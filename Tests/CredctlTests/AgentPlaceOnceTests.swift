import Agent
@testable import CredctlKit
import XCTest

final class AgentPlaceOnceTests: XCTestCase {
    func testThePlaceIsWorkedOutTheFirstTimeOnly() {
        let once = AgentPlaceOnce()
        var computed = 0
        let first = once.value { computed += 1; return AgentPlace(vaultPath: "/v/one", environment: ["XDG_RUNTIME_DIR": "/run/a"]) }
        let second = once.value { computed += 1; return AgentPlace(vaultPath: "/v/two", environment: ["XDG_RUNTIME_DIR": "/run/b"]) }
        XCTAssertEqual(first.socket, second.socket)
        XCTAssertEqual(computed, 1)
    }
}
