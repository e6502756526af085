import Foundation
import XCTest

/// The agent syncs in the background, locked or not: another device's host arrives without a
/// `credctl sync`, and `status` says when it last synced and when it will next.
final class AgentSyncTests: AgentSyncTestCase {
    func testTheAgentBringsAnotherDevicesChangesInWithoutBeingAsked() throws {
        try startAgent(a, syncInterval: 1)
        assertStatus(try b.run("host", "add", "from-b", "--hostname", "b.example"), 0)
        assertStatus(try b.run("sync"), 0)
        XCTAssertTrue(try eventually { try a.run("host", "list").output.contains("from-b") }, "the agent synced device A while it was locked")
        let shown = try agentStatus(a)
        XCTAssertEqual(shown["state"] as? String, "locked")
        XCTAssertNotNil(shown["last_sync"] as? Int)
        XCTAssertTrue(shown["sync_error"] is NSNull, "\(shown)")
        XCTAssertTrue(try a.run("status").output.contains("background sync: last "))
    }
}
