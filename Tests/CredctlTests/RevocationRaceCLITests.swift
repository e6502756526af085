import Foundation
import XCTest

/// A revocation racing the revoked device's last batch, through credctl: B took in R's newest
/// batch before A, which had not read it, revoked R. B's next sync undoes what that batch
/// brought — B's own unsent edit stays and is sent — and says so; then B and A hold the same. The device list shows who was last heard from, in
/// which epoch, and who is asking to join.
final class RevocationRaceCLITests: TwoDeviceTestCase {
    private func runner(_ name: String) -> CredctlRunner { CredctlRunner(vault: directory + "/" + name, keyFile: directory + "/" + name + ".key") }

    private func deviceID(_ device: CredctlRunner) throws -> String {
        let status = try JSONSerialization.jsonObject(with: Data(try device.run("status", "--json").stdout)) as? [String: Any]
        return try XCTUnwrap(status?["device_id"] as? String)
    }

    func testADeviceThatTookInABatchPastTheCutoffUndoesItKeepingItsUnsentEdits() throws {
        try join()
        let r = runner("r")
        assertStatus(try r.run("init", "--join", remote, "--recovery-key-file", recoveryKey, "--name", "stolen"), 0)
        for device in [a!, b!] { assertStatus(try device.run("sync"), 0) }
        let rID = try deviceID(r)
        assertStatus(try a.run(["host", "add", "cx-a", "--hostname", "a.example", "--password-stdin"], input: Array("from-a".utf8)), 0)
        assertStatus(try a.run("sync"), 0)
        assertStatus(try r.run(["host", "add", "planted", "--hostname", "planted.example", "--password-stdin"], input: Array("planted-pw".utf8)), 0)
        assertStatus(try r.run("sync"), 0)
        assertStatus(try b.run("sync"), 0)
        XCTAssertTrue(try b.run("host", "list").output.contains("planted"), "B took in R's newest batch")

        // A revokes R without seeing that batch, in either zone (a sync tool still bringing them).
        var aside: [(String, String)] = []
        for zone in ["config", "secrets"] {
            let zoneDirectory = remote + "/zones/\(zone)/" + rID
            let newest = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: zoneDirectory).filter { $0.hasSuffix(".batch") }.max())
            aside.append((zoneDirectory + "/" + newest, directory + "/aside-\(zone).batch"))
        }
        for (path, held) in aside { try FileManager.default.moveItem(atPath: path, toPath: held) }
        assertStatus(try a.run("device", "revoke", "stolen", "--yes", "--recovery-key-file", directory + "/new-recovery-key"), 0)
        for (path, held) in aside { try FileManager.default.moveItem(atPath: held, toPath: path) }
        XCTAssertFalse(try a.run("host", "list").output.contains("planted"))

        // B made an edit of its own meanwhile, not sent yet: the undo keeps it.
        assertStatus(try b.run(["host", "add", "mine", "--hostname", "mine.example", "--password-stdin"], input: Array("kept-through-undo".utf8)), 0)
        let raced = try b.run("sync")
        assertStatus(raced, 0)
        for zone in ["config", "secrets"] {
            XCTAssertTrue(raced.output.contains("\(zone): undid what revoked 'stolen' (\(rID)) wrote after the revoking device last read it"), raced.output)
        }
        XCTAssertEqual(try b.run("read", "cred://host/cx-a/password").output, "from-a", "what B had from A before is there again")
        let hosts = try b.run("host", "list").output
        XCTAssertFalse(hosts.contains("planted"), "what R wrote past its cutoff is gone:\n\(hosts)")
        XCTAssertTrue(hosts.contains("mine") && hosts.contains("cx-a"), hosts)
        assertStatus(try a.run("sync"), 0)
        XCTAssertEqual(try a.run("read", "cred://host/mine/password").output, "kept-through-undo", "B's unsent edit reached A")
        XCTAssertTrue(try a.run("quarantine", "list").output.contains("written by revoked device \(rID) after its revocation"), "A refuses the raced batch")
        // Both hold the same hosts, and B compacts again (its state is one other devices hold).
        XCTAssertEqual(try b.run("host", "list").output, try a.run("host", "list").output)
        let compacted = try b.run("sync", "--compact", "--json")
        assertStatus(compacted, 0)
        let zones = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(compacted.stdout)) as? [String: Any])?["zones"] as? [[String: Any]])
        let config = try XCTUnwrap(zones.first { $0["zone"] as? String == "config" })
        XCTAssertEqual((config["undid_revoked"] as? [String])?.count, 0, "undone once")
        XCTAssertEqual(config["snapshots_written"] as? Int, 1, compacted.output)

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
