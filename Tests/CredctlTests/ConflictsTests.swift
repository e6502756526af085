import Foundation
import XCTest

/// A password edit that loses to a deletion made elsewhere is kept on its device, listed, and
/// brought back everywhere by `conflicts restore`.
final class ConflictsTests: TwoDeviceTestCase {
    /// B sets web's password while A clears it; A syncs first, so B's edit loses and is kept.
    private func loseAnEditOnBToAClearOnA() throws {
        assertStatus(try a.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("original".utf8)), 0)
        assertStatus(try a.run("sync"), 0)
        try join()
        assertStatus(try b.run(["host", "edit", "web", "--password-stdin"], input: Array("Edit-Made-On-B".utf8)), 0)
        assertStatus(try a.run("host", "edit", "web", "--no-password"), 0)
        assertStatus(try a.run("sync"), 0)
        assertStatus(try b.run("sync"), 0)
    }

    func testALosingEditIsListedOnItsDeviceAndRestoredEverywhere() throws {
        try loseAnEditOnBToAClearOnA()
        assertStatus(try b.run("read", "cred://host/web/password"), 66)
        XCTAssertEqual(try a.run("conflicts", "list").output, "No conflicts: no change made on this device has lost a merge.\n")

        let listed = try b.run("conflicts", "list")
        assertStatus(listed, 0)
        XCTAssertTrue(listed.output.contains("password of host 'web'"), listed.output)
        XCTAssertTrue(listed.output.contains("deleted on "), listed.output)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try b.run("conflicts", "list", "--json").stdout)) as? [String: Any])
        let entry = try XCTUnwrap((json["conflicts"] as? [[String: Any]])?.first)
        let winner = try XCTUnwrap(entry["winner"] as? [String: Any])
        XCTAssertEqual(winner["deleted"] as? Bool, true)
        let deviceA = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(try a.run("status", "--json").stdout)) as? [String: Any])?["device_id"] as? String)
        XCTAssertEqual(winner["device"] as? String, deviceA)
        for output in [listed.output, String(decoding: try b.run("conflicts", "list", "--json").stdout, as: UTF8.self), try b.run("status").output] {
            XCTAssertFalse(output.contains("Edit-Made-On-B"), "a kept version is never shown")
        }
        XCTAssertTrue(try b.run("status").output.contains("1 losing version kept"))

        assertStatus(try b.run("conflicts", "restore", "nonsense"), 64)
        assertStatus(try b.run("conflicts", "restore", "999"), 66)
        let id = try XCTUnwrap(entry["id"] as? Int)
        assertStatus(try b.run("conflicts", "restore", String(id)), 0)
        XCTAssertEqual(try b.run("read", "cred://host/web/password").output, "Edit-Made-On-B")
        XCTAssertEqual(try b.run("conflicts", "list", "--json").output, "{\n  \"conflicts\": []\n}\n")
        assertStatus(try b.run("sync"), 0)
        assertStatus(try a.run("sync"), 0)
        XCTAssertEqual(try a.run("read", "cred://host/web/password").output, "Edit-Made-On-B")
        XCTAssertEqual(try a.run("conflicts", "list", "--json").output, "{\n  \"conflicts\": []\n}\n", "the winning side lost nothing")
    }

    func testARestoreKilledBetweenItsTwoWritesRunsAgainAndEndsRestoredEverywhere() throws {
        try loseAnEditOnBToAClearOnA()
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try b.run("conflicts", "list", "--json").stdout)) as? [String: Any])
        let id = try XCTUnwrap((json["conflicts"] as? [[String: Any]])?.first?["id"] as? Int)

        // Killed after the body is back and before the host names it again.
        let killed = try KilledProcess.run(b, ["conflicts", "restore", String(id)], kill: .failpoint("restore-conflict.after-secret"))
        XCTAssertTrue(killed.killed)
        let between = try b.run("read", "cred://host/web/password")
        assertStatus(between, 66)
        XCTAssertTrue(between.stderr.contains("Host 'web' has no password"), "no reference yet: \(between.stderr)")
        XCTAssertTrue(try b.run("conflicts", "list").output.contains("password of host 'web'"), "still listed, so it can be run again")

        assertStatus(try b.run("conflicts", "restore", String(id)), 0)
        XCTAssertEqual(try b.run("read", "cred://host/web/password").output, "Edit-Made-On-B")
        assertStatus(try b.run("sync"), 0)
        assertStatus(try a.run("sync"), 0)
        XCTAssertEqual(try a.run("read", "cred://host/web/password").output, "Edit-Made-On-B")
        XCTAssertEqual(try b.run("conflicts", "list", "--json").output, "{\n  \"conflicts\": []\n}\n")
    }

    /// B edits web's password while A removes web: B keeps its edit, and restoring it brings
    /// web back (the next incarnation of its record, from what B held) with that password, on
    /// every device. While web's label is taken, the restore is refused and changes nothing.
    func testRestoringThePasswordOfARemovedHostBringsTheHostBackEverywhere() throws {
        assertStatus(try a.run(["host", "add", "web", "--hostname", "web.example", "--user", "deploy", "--password-stdin"], input: Array("original".utf8)), 0)
        assertStatus(try a.run("sync"), 0)
        try join()
        assertStatus(try b.run(["host", "edit", "web", "--password-stdin"], input: Array("edit on b".utf8)), 0)
        assertStatus(try a.run("host", "rm", "web"), 0)
        assertStatus(try a.run("sync"), 0)
        assertStatus(try b.run("sync"), 0)
        assertStatus(try b.run("host", "show", "web"), 66)
        XCTAssertTrue(try b.run("conflicts", "list").output.contains("password of a removed host"))

        assertStatus(try b.run("host", "add", "web", "--hostname", "other.example"), 0)
        let refused = try b.run("conflicts", "restore", "1")
        assertStatus(refused, 65)
        XCTAssertTrue(refused.stderr.contains("already exists"), refused.stderr)
        XCTAssertTrue(try b.run("conflicts", "list").output.contains("password of a removed host"), "still kept")
        assertStatus(try b.run("host", "rm", "web"), 0)

        let restored = try b.run("conflicts", "restore", "1")
        assertStatus(restored, 0)
        XCTAssertTrue(restored.output.contains("password of host 'web'"), restored.output)
        XCTAssertEqual(try b.run("read", "cred://host/web/password").output, "edit on b")
        let shown = try b.run("host", "show", "web").output
        XCTAssertTrue(shown.contains("web.example:22") && shown.contains("deploy"), "the host as B held it: \(shown)")
        for device in [b!, a!, b!] { assertStatus(try device.run("sync"), 0) }
        XCTAssertEqual(try a.run("read", "cred://host/web/password").output, "edit on b", "back on the device that removed it")
        XCTAssertEqual(try a.run("conflicts", "list", "--json").output, "{\n  \"conflicts\": []\n}\n")
        XCTAssertEqual(try b.run("conflicts", "list", "--json").output, "{\n  \"conflicts\": []\n}\n")
    }

    /// B's password edit and port edit are uploaded; A removes the host afterwards without
    /// having fetched them. A's removal says what A had seen, so B keeps both (listed on B
    /// only), and restoring the password brings the host back with B's port.
    func testEditsUploadedBeforeARemovalThatHadNotSeenThemAreKept() throws {
        assertStatus(try a.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("original".utf8)), 0)
        assertStatus(try a.run("sync"), 0)
        try join()
        assertStatus(try b.run(["host", "edit", "web", "--port", "2200", "--password-stdin"], input: Array("Uploaded-On-B".utf8)), 0)
        assertStatus(try b.run("sync"), 0)
        usleep(20_000)
        assertStatus(try a.run("host", "rm", "web"), 0)
        for device in [a!, b!, a!] { assertStatus(try device.run("sync"), 0) }
        assertStatus(try b.run("host", "show", "web"), 66)
        let listed = try b.run("conflicts", "list").output
        XCTAssertTrue(listed.contains("password of a removed host"), listed)
        XCTAssertTrue(listed.contains("2200"), "the port B set is kept too: \(listed)")
        XCTAssertFalse(listed.contains("Uploaded-On-B"))
        XCTAssertEqual(try a.run("conflicts", "list", "--json").output, "{\n  \"conflicts\": []\n}\n", "A removed it knowingly of nothing it wrote")

        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try b.run("conflicts", "list", "--json").stdout)) as? [String: Any])
        let secret = try XCTUnwrap((json["conflicts"] as? [[String: Any]])?.first { $0["kind"] as? String == "secret" })
        assertStatus(try b.run("conflicts", "restore", "s\(try XCTUnwrap(secret["id"] as? Int))"), 0)
        XCTAssertEqual(try b.run("read", "cred://host/web/password").output, "Uploaded-On-B")
        XCTAssertTrue(try b.run("host", "show", "web").output.contains("web.example:2200"), "the host as B last held it")
        for device in [b!, a!] { assertStatus(try device.run("sync"), 0) }
        XCTAssertEqual(try a.run("read", "cred://host/web/password").output, "Uploaded-On-B", "back on the device that removed it")
    }
}
