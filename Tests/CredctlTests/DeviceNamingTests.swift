import Foundation
import XCTest

/// Devices go by names their users choose (`init --device-name`, `device rename`, synced to
/// every device), else the host name and the start of the id; `device list` gives local times.
final class DeviceNamingTests: TwoDeviceTestCase {
    private func names(_ runner: CredctlRunner) throws -> [String: String] {
        let list = try JSONSerialization.jsonObject(with: Data(try runner.run("device", "list", "--json").stdout)) as? [String: Any]
        let devices = list?["devices"] as? [[String: Any]] ?? []
        return Dictionary(devices.map { ($0["id"] as? String ?? "", $0["name"] as? String ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    private func id(_ runner: CredctlRunner) throws -> String {
        let status = try JSONSerialization.jsonObject(with: Data(try runner.run("status", "--json").stdout)) as? [String: Any]
        return try XCTUnwrap(status?["device_id"] as? String)
    }

    func testNamesAreChosenRenamedAndSyncedAndTimesAreLocal() throws {
        let first = try id(a)
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count)
        XCTAssertEqual(try names(a)[first], String(cString: host) + "-" + first.prefix(4), "the host name and the start of the id")

        assertStatus(try a.run("device", "rename", String(first.prefix(8)), "laptop"), 0)
        assertStatus(try a.run("sync"), 0)
        assertStatus(try b.run("init", "--join", remote, "--recovery-key-file", recoveryKey, "--device-name", "phone"), 0)
        let second = try id(b)
        XCTAssertEqual(try names(b), [first: "laptop", second: "phone"])
        assertStatus(try a.run("sync"), 0)
        XCTAssertEqual(try names(a), [first: "laptop", second: "phone"])

        assertStatus(try b.run("device", "rename", "LAPTOP", "work"), 0)
        assertStatus(try b.run("device", "rename", "phone", "Work"), 65)
        assertStatus(try b.run("device", "rename", "nobody", "x"), 66)
        assertStatus(try b.run("sync"), 0)
        assertStatus(try a.run("sync"), 0)
        XCTAssertEqual(try names(a)[first], "work")

        let listed = try a.run("device", "list").output
        XCTAssertNotNil(listed.range(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d"#, options: .regularExpression), listed)
        XCTAssertFalse(listed.contains("UTC"), listed)
        assertStatus(try a.run("device", "revoke", "phone", "--yes"), 0)
    }
}
