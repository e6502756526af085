import Foundation
import XCTest

/// What `status` and `host show` say matches what this device holds: a remote never synced with
/// is not "unreachable", and a password whose body has not arrived is not "stored".
final class HonestStateTests: TwoDeviceTestCase {
    private func zoneStates(_ runner: CredctlRunner) throws -> [String] {
        let status = try JSONSerialization.jsonObject(with: Data(try runner.run("status", "--json").stdout)) as? [String: Any]
        return (status?["zones"] as? [[String: Any]])?.compactMap { $0["state"] as? String } ?? []
    }

    private func shown(_ runner: CredctlRunner, _ label: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try runner.run("host", "show", label, "--json").stdout)) as? [String: Any])
    }

    func testARemoteNeverSyncedWithSaysSoAndAPasswordSaysWhereItIs() throws {
        XCTAssertEqual(try zoneStates(a), ["neverSynced", "neverSynced"])
        let text = try a.run("status").output
        XCTAssertTrue(text.contains("never synced") && !text.contains("localFallback"), text)
        assertStatus(try a.run("sync"), 0)
        XCTAssertEqual(try zoneStates(a), ["available", "available"])

        try join()
        assertStatus(try a.run(["host", "add", "db", "--hostname", "db.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        assertStatus(try a.run("host", "add", "plain", "--hostname", "p.example"), 0)
        assertStatus(try a.run("sync"), 0)
        assertStatus(try b.run("sync", "--zone", "config"), 0)
        XCTAssertTrue(try b.run("host", "show", "db").output.contains("Password:  not synced to this device yet"))
        XCTAssertEqual(try shown(b, "db")["password_state"] as? String, "not-synced")
        XCTAssertTrue(try b.run("host", "show", "plain").output.contains("Password:  none"))
        XCTAssertTrue(try shown(b, "plain")["password_state"] is NSNull)
        assertStatus(try b.run("sync"), 0)
        XCTAssertTrue(try b.run("host", "show", "db").output.contains("Password:  stored"))
        XCTAssertEqual(try shown(b, "db")["password_state"] as? String, "stored")
    }
}
