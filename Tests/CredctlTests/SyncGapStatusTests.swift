import Foundation
import XCTest

/// A batch that does not arrive holds back its device's later ones; status says so, and says
/// it louder once the gap has stayed open longer than a sync tool's delay explains.
final class SyncGapStatusTests: TwoDeviceTestCase {
    private func status(_ runner: CredctlRunner) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try runner.run("status", "--json").stdout)) as? [String: Any])
    }

    private func zone(_ runner: CredctlRunner, _ name: String) throws -> [String: Any] {
        let zones = try XCTUnwrap(try status(runner)["zones"] as? [[String: Any]])
        return try XCTUnwrap(zones.first { $0["name"] as? String == name })
    }

    func testAGapIsReportedThenEscalatedAndClearsWhenTheObjectArrives() throws {
        try join()
        assertStatus(try a.run("host", "add", "one", "--hostname", "one.example"), 0)
        assertStatus(try a.run("sync", "--zone", "config"), 0)
        assertStatus(try a.run("host", "add", "two", "--hostname", "two.example"), 0)
        assertStatus(try a.run("sync", "--zone", "config"), 0)
        let deviceA = try XCTUnwrap(try status(a)["device_id"] as? String)
        let objects = try FileManager.default.contentsOfDirectory(atPath: remote + "/zones/config/\(deviceA)").filter { $0.hasSuffix(".batch") }.sorted()
        XCTAssertEqual(objects.count, 2)
        let held = directory + "/held-back"
        try FileManager.default.moveItem(atPath: remote + "/zones/config/\(deviceA)/\(objects[0])", toPath: held)

        let sync = try b.run("sync", "--zone", "config")
        assertStatus(sync, 0)
        XCTAssertTrue(sync.output.contains("1 waiting"), sync.output)
        var config = try zone(b, "config")
        XCTAssertEqual(config["state"] as? String, "available")
        XCTAssertEqual(config["waiting"] as? Int, 1)
        let since = try XCTUnwrap(config["waiting_since"] as? Int)
        XCTAssertTrue(try b.run("status").output.contains("1 waiting for an earlier object"))

        // Another run a moment later keeps the first time the gap was seen.
        assertStatus(try b.run("sync", "--zone", "config"), 0)
        XCTAssertEqual(try zone(b, "config")["waiting_since"] as? Int, since)

        // Two days later (as the status file records it), the gap needs attention.
        let statusFile = directory + "/b/sync-status.json"
        let text = try String(contentsOfFile: statusFile, encoding: .utf8)
        try text.replacingOccurrences(of: "\"waiting_since\" : \(since)", with: "\"waiting_since\" : \(since - 2 * 86_400)")
            .write(toFile: statusFile, atomically: true, encoding: .utf8)
        config = try zone(b, "config")
        XCTAssertEqual(config["state"] as? String, "needsAttention")
        XCTAssertTrue((config["reason"] as? String ?? "").contains("more than a day"), "\(config)")

        try FileManager.default.moveItem(atPath: held, toPath: remote + "/zones/config/\(deviceA)/\(objects[0])")
        assertStatus(try b.run("sync", "--zone", "config"), 0)
        let hosts = try b.run("host", "list").output
        XCTAssertTrue(hosts.contains("one") && hosts.contains("two"), hosts)
        config = try zone(b, "config")
        XCTAssertEqual(config["state"] as? String, "available")
        XCTAssertEqual(config["waiting"] as? Int, 0)
        XCTAssertTrue(config["waiting_since"] is NSNull, "\(config)")
    }
    /// A remote rolled back below what B has read (a folder restored from an old backup): said
    /// as needsAttention from the third run on, naming the device; a rebind accepts it.
    func testARemoteRolledBackBelowWhatWasReadNeedsAttention() throws {
        try join()
        for label in ["one", "two"] {
            assertStatus(try a.run("host", "add", label, "--hostname", "\(label).example"), 0)
            assertStatus(try a.run("sync", "--zone", "config"), 0)
        }
        assertStatus(try b.run("sync", "--zone", "config"), 0)
        let deviceA = try XCTUnwrap(try status(a)["device_id"] as? String)
        let objects = try FileManager.default.contentsOfDirectory(atPath: remote + "/zones/config/\(deviceA)").filter { $0.hasSuffix(".batch") }.sorted()
        try FileManager.default.removeItem(atPath: remote + "/zones/config/\(deviceA)/\(try XCTUnwrap(objects.last))")
        for _ in 0..<2 { assertStatus(try b.run("sync", "--zone", "config"), 0) }
        let third = try b.run("sync", "--zone", "config")
        assertStatus(third, 1)
        XCTAssertTrue(third.stderr.contains("the remote shows less than this device has read: objects of"), third.stderr)
        XCTAssertTrue(third.stderr.contains(deviceA), third.stderr)
        XCTAssertEqual(try zone(b, "config")["state"] as? String, "needsAttention")
        assertStatus(try b.run("remote", "set", remote, "--merge"), 0)
        for _ in 0..<3 { assertStatus(try b.run("sync", "--zone", "config"), 0) }
        XCTAssertEqual(try zone(b, "config")["state"] as? String, "available")
    }
}
