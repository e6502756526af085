import Foundation
import XCTest

/// The agent syncs in the background, locked or not: another device's host arrives without a
/// `credctl sync`, and `status` says when it last synced and when it will next.
final class AgentSyncTests: TwoDeviceTestCase {
    func testTheAgentBringsAnotherDevicesChangesInWithoutBeingAsked() throws {
        try join()
        var agentSide = a!
        agentSide.environment["XDG_RUNTIME_DIR"] = directory + "/run"
        try FileManager.default.createDirectory(atPath: directory + "/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: CredctlRunner.binary)
        agent.arguments = ["agent", "--sync-interval", "1"]
        agent.environment = agentSide.environment
        agent.standardOutput = FileHandle.nullDevice
        agent.standardError = FileHandle.nullDevice
        try agent.run()
        defer { agent.terminate(); agent.waitUntilExit() }

        assertStatus(try b.run("host", "add", "from-b", "--hostname", "b.example"), 0)
        assertStatus(try b.run("sync"), 0)
        var arrived = false
        for _ in 0..<100 where !arrived {
            arrived = try agentSide.run("host", "list").output.contains("from-b")
            if !arrived { usleep(100_000) }
        }
        XCTAssertTrue(arrived, "the agent synced device A while it was locked")
        let status = try JSONSerialization.jsonObject(with: Data(try agentSide.run("status", "--json").stdout)) as? [String: Any]
        let shown = try XCTUnwrap(status?["agent"] as? [String: Any])
        XCTAssertEqual(shown["state"] as? String, "locked")
        XCTAssertNotNil(shown["last_sync"] as? Int)
        XCTAssertTrue(shown["sync_error"] is NSNull, "\(shown)")
        XCTAssertTrue(try agentSide.run("status").output.contains("background sync: last "))
    }
}
