import Foundation
import XCTest

/// A revocation racing the revoked device's last batch, through credctl: B took in R's newest
/// batch before A, which had not read it, revoked R. B says its zone must be rebuilt (and
/// compacts nothing) instead of going on with a state no other device holds; A and the device
/// list show who was last heard from, in which epoch, and who is asking to join.
final class RevocationRaceCLITests: TwoDeviceTestCase {
    private func runner(_ name: String) -> CredctlRunner { CredctlRunner(vault: directory + "/" + name, keyFile: directory + "/" + name + ".key") }

    private func deviceID(_ device: CredctlRunner) throws -> String {
        let status = try JSONSerialization.jsonObject(with: Data(try device.run("status", "--json").stdout)) as? [String: Any]
        return try XCTUnwrap(status?["device_id"] as? String)
    }

    func testADeviceThatTookInABatchPastTheCutoffSaysTheZoneMustBeRebuilt() throws {
        try join()
        let r = runner("r")
        assertStatus(try r.run("init", "--join", remote, "--recovery-key-file", recoveryKey, "--name", "stolen"), 0)
        for device in [a!, b!] { assertStatus(try device.run("sync"), 0) }
        let rID = try deviceID(r)
        assertStatus(try r.run("host", "add", "planted", "--hostname", "planted.example"), 0)
        assertStatus(try r.run("sync"), 0)
        assertStatus(try b.run("sync"), 0)
        XCTAssertTrue(try b.run("host", "list").output.contains("planted"), "B took in R's newest batch")

        // A revokes R without seeing that batch (a sync tool still bringing it).
        let zoneDirectory = remote + "/zones/config/" + rID
        let newest = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: zoneDirectory).filter { $0.hasSuffix(".batch") }.max())
        try FileManager.default.moveItem(atPath: zoneDirectory + "/" + newest, toPath: directory + "/aside.batch")
        assertStatus(try a.run("device", "revoke", "stolen", "--yes", "--recovery-key-file", directory + "/new-recovery-key"), 0)
        try FileManager.default.moveItem(atPath: directory + "/aside.batch", toPath: zoneDirectory + "/" + newest)
        XCTAssertFalse(try a.run("host", "list").output.contains("planted"))

        let raced = try b.run("sync", "--compact")
        assertStatus(raced, 1)
        XCTAssertTrue(raced.stderr.contains("applied what revoked 'stolen' (\(rID)) wrote past its revocation's cutoff"), raced.stderr)
        XCTAssertTrue(raced.stderr.contains("has to be rebuilt from the remote"), raced.stderr)
        XCTAssertTrue(try b.run("status").output.contains("has to be rebuilt"))
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: remote + "/zones/config").contains { $0.hasSuffix(".snapshot") })
        let quarantine = try a.run("sync")
        assertStatus(quarantine, 0)
        XCTAssertTrue(try a.run("quarantine", "list").output.contains("written by revoked device \(rID) after its revocation"), "A refuses the raced batch")

        // The device list: states, epochs, when each was last heard from, and a pending request.
        assertStatus(try runner("p").run("init", "--join", remote, "--name", "new-phone"), 75)
        let listed = try a.run("device", "list", "--json")
        assertStatus(listed, 0)
        let devices = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(listed.stdout)) as? [String: Any])?["devices"] as? [[String: Any]])
        let byName = Dictionary(devices.compactMap { device in (device["name"] as? String).map { ($0, device) } }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(byName["stolen"]?["state"] as? String, "revoked")
        XCTAssertEqual(byName["stolen"]?["epoch"] as? Int, 1, "the last epoch it held")
        XCTAssertEqual(devices.filter { $0["state"] as? String == "member" }.compactMap { $0["epoch"] as? Int }, [2, 2])
        let now = Int(Date().timeIntervalSince1970)
        let others = devices.filter { ["member", "revoked"].contains($0["state"] as? String) && $0["this_device"] as? Bool == false }
        XCTAssertEqual(others.count, 2)
        for device in others {
            let heard = try XCTUnwrap(device["last_change"] as? Int, "heard from: \(listed.output)")
            XCTAssertLessThanOrEqual(abs(now - heard), 600)
        }
        XCTAssertEqual(devices.filter { $0["state"] as? String == "pending" }.count, 1)
        let table = try a.run("device", "list").output
        for expected in ["LAST CHANGE", "EPOCH", "pending (code ", "revoked by"] { XCTAssertTrue(table.contains(expected), "\(expected) in:\n\(table)") }
    }
}
