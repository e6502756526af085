import Foundation
import XCTest

/// Two devices sharing a directory remote (B joined), each with a runtime directory where its
/// agent and its commands meet; every agent a test started is stopped at its end.
class AgentSyncTestCase: TwoDeviceTestCase {
    private var agents: [Process] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        try join()
        let runtime = directory + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        a.environment["XDG_RUNTIME_DIR"] = runtime
        b.environment["XDG_RUNTIME_DIR"] = runtime
    }

    override func tearDownWithError() throws {
        for agent in agents where agent.isRunning {
            kill(agent.processIdentifier, SIGCONT)
            agent.terminate()
            agent.waitUntilExit()
        }
        try super.tearDownWithError()
    }

    /// Starts `credctl agent --sync-interval SECONDS` for `device`'s vault and waits (at most
    /// 10 s) until it answers.
    @discardableResult
    func startAgent(_ device: CredctlRunner, syncInterval: Int, file: StaticString = #filePath, line: UInt = #line) throws -> Process {
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: CredctlRunner.binary)
        agent.arguments = ["agent", "--sync-interval", String(syncInterval)]
        agent.environment = device.environment
        agent.standardOutput = FileHandle.nullDevice
        agent.standardError = FileHandle.nullDevice
        try agent.run()
        agents.append(agent)
        XCTAssertTrue(try eventually { try agentStatus(device)["pid"] is Int }, "the agent started", file: file, line: line)
        return agent
    }

    /// The `agent` object of `device`'s `status --json`.
    func agentStatus(_ device: CredctlRunner) throws -> [String: Any] {
        let result = try device.run("status", "--json")
        guard result.status == 0, !result.stdout.isEmpty else {
            throw HeadlessKeyring.FixtureFailure("status --json ended \(result.status)\(result.signaled ? " (signal)" : ""): \(result.stderr)")
        }
        let status = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
        return status?["agent"] as? [String: Any] ?? [:]
    }

    /// How many syncs `device`'s agent has run.
    func syncCount(_ device: CredctlRunner) throws -> Int { try agentStatus(device)["sync_count"] as? Int ?? -1 }

    /// Whether `condition` holds within `seconds`, asked every 100 ms.
    func eventually(within seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        repeat {
            if try condition() { return true }
            usleep(100_000)
        } while Date() < deadline
        return try condition()
    }
}
