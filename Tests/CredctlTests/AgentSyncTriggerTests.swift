import Foundation
import XCTest

/// Besides its schedule, the agent syncs soon after a command changes its vault and soon after
/// another device's objects land in the remote directory. Its schedule here is an hour away, so
/// only a trigger explains a sync; a burst of changes makes few syncs, and its own syncs never
/// trigger another.
final class AgentSyncTriggerTests: AgentSyncTestCase {
    func testALocalChangeReachesTheRemoteWithoutASync() throws {
        try startAgent(b, syncInterval: 3_600)
        XCTAssertEqual(try syncCount(b), 0)
        assertStatus(try b.run("host", "add", "from-b", "--hostname", "b.example"), 0)
        // A stays still until then: only B's command can have made B's agent sync.
        XCTAssertTrue(try eventually { try syncCount(b) >= 1 }, "B's agent synced after the change, an hour before its schedule")
        assertStatus(try a.run("sync"), 0)
        XCTAssertTrue(try a.run("host", "list").output.contains("from-b"), "B's agent sent B's new host")
        let text = try b.run("status").output
        XCTAssertTrue(text.contains(" since it started)"), text)
        XCTAssertTrue(text.contains("and soon after each local change or change in the remote directory (inotify)"), text)
    }

    func testAnotherDevicesChangeArrivesThroughTheWatchedRemoteDirectory() throws {
        // host list reads only: without an agent, what A sent stays on the remote.
        assertStatus(try a.run("host", "add", "early", "--hostname", "early.example"), 0)
        assertStatus(try a.run("sync"), 0)
        XCTAssertFalse(try b.run("host", "list").output.contains("early"))

        try startAgent(b, syncInterval: 3_600)
        XCTAssertEqual(try agentStatus(b)["remote_watch"] as? String, "watching")
        assertStatus(try a.run("host", "add", "from-a", "--hostname", "a.example"), 0)
        assertStatus(try a.run("sync"), 0)
        XCTAssertTrue(try eventually { try b.run("host", "list").output.contains("from-a") }, "B's agent noticed A's objects")
        XCTAssertTrue(try b.run("host", "list").output.contains("early"))
    }

    func testABurstMakesFewSyncsAndTwoWatchingAgentsCalmDown() throws {
        try startAgent(a, syncInterval: 3_600)
        try startAgent(b, syncInterval: 3_600)
        let burst = 20
        for index in 0..<burst {
            assertStatus(try b.run("host", "add", "burst-\(index)", "--hostname", "h\(index).example"), 0)
        }
        XCTAssertTrue(try eventually(within: 20) { try a.run("host", "list").output.contains("burst-\(burst - 1)") },
                      "A's agent fetched what B's agent sent")
        // Settled: neither count moves for longer than a debounce.
        var counts = [try syncCount(a), try syncCount(b)]
        XCTAssertTrue(try eventually(within: 20) {
            usleep(3_000_000)
            let now = [try syncCount(a), try syncCount(b)]
            defer { counts = now }
            return now == counts
        }, "the agents stop syncing: \(counts)")
        // One sync for the burst on B (two if it outlasted a debounce), one on A for B's objects,
        // one more on B for A's cursors: bounded, and far below one per change.
        XCTAssertLessThanOrEqual(counts[1], 4, "B's syncs for \(burst) changes")
        XCTAssertLessThanOrEqual(counts[0], 3, "A's syncs")
        // Commands that change nothing tell nothing; nor does a sync with nothing to send.
        let settled = counts
        assertStatus(try b.run("host", "list"), 0)
        assertStatus(try b.run("status"), 0)
        assertStatus(try b.run("sync"), 0)
        XCTAssertFalse(try eventually(within: 4) { [try syncCount(a), try syncCount(b)] != settled }, "nothing more to sync")
    }

    func testCommandsStayQuickWithAStuckAKilledOrNoAgent() throws {
        func quick(_ label: String, within seconds: Double) throws {
            let started = Date()
            assertStatus(try b.run("host", "add", label, "--hostname", "\(label).example"), 0)
            XCTAssertLessThan(Date().timeIntervalSince(started), seconds, label)
        }
        try quick("no-agent", within: 2)
        let agent = try startAgent(b, syncInterval: 3_600)
        // Stopped, it accepts connections and never answers: the command waits 1 s at most.
        kill(agent.processIdentifier, SIGSTOP)
        try quick("stuck-agent", within: 4)
        kill(agent.processIdentifier, SIGKILL)
        agent.waitUntilExit()
        try quick("killed-agent", within: 2)
        XCTAssertTrue(try b.run("host", "list").output.contains("killed-agent"))
    }

    func testAChangeIsNoUseOfTheKeys() throws {
        try startAgent(b, syncInterval: 3_600)
        assertStatus(try b.run("unlock", "--idle-timeout", "2"), 0)
        var told = 0
        // Told every few hundred milliseconds, it still locks after 2 s without a read.
        XCTAssertTrue(try eventually {
            assertStatus(try b.run("host", "add", "told-\(told)", "--hostname", "t.example"), 0)
            told += 1
            return try agentStatus(b)["state"] as? String == "locked"
        }, "the idle time ran out")
        XCTAssertGreaterThan(told, 3)
        XCTAssertTrue(try eventually { try syncCount(b) >= 1 }, "the agent was told")
    }
}
