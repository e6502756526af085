import Foundation
import XCTest
import struct Identifiers.UUID

/// Edits of one host made on two devices before either saw the other's, through credctl, in
/// every order of syncs: A first, B first, interleaved (both upload before either has seen the
/// other), and relayed by a third device's snapshot after A's own batch was collected.
final class ConcurrentEditTests: TwoDeviceTestCase {
    private var c: CredctlRunner!

    override func setUpWithError() throws {
        try super.setUpWithError()
        c = CredctlRunner(vault: directory + "/c", keyFile: directory + "/c.key")
        assertStatus(try a.run("host", "add", "cx", "--hostname", "cx.example"), 0)
        assertStatus(try a.run("sync"), 0)
        try join()
        assertStatus(try c.run("init", "--join", remote, "--recovery-key-file", recoveryKey), 0)
        for device in [b!, c!] { assertStatus(try device.run("sync"), 0) }
    }

    private func deviceID(_ device: CredctlRunner) throws -> String {
        let status = try JSONSerialization.jsonObject(with: Data(try device.run("status", "--json").stdout)) as? [String: Any]
        return try XCTUnwrap(status?["device_id"] as? String)
    }

    /// Runs the syncs of `order`; the edits travel in `zone` (for the relay: A's batch holding
    /// them must be gone before B syncs, so they reach B only through C's snapshot).
    private func syncAll(in order: String, zone: String = "config") throws {
        func sync(_ device: CredctlRunner) throws { assertStatus(try device.run("sync"), 0) }
        switch order {
        case "A first": for device in [a!, b!, a!] { try sync(device) }
        case "B first": for device in [b!, a!, b!] { try sync(device) }
        case "interleaved":
            try sync(a)
            // B's sync does not see A's objects yet (a sync tool still copying them).
            let objects = remote + "/zones/\(zone)/" + (try deviceID(a)), aside = directory + "/aside"
            try FileManager.default.moveItem(atPath: objects, toPath: aside)
            try sync(b)
            try FileManager.default.moveItem(atPath: aside, toPath: objects)
            for device in [a!, b!] { try sync(device) }
        default:
            try sync(a)
            let objects = remote + "/zones/\(zone)/" + (try deviceID(a))
            let edit = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: objects).filter { $0.hasSuffix(".batch") }.max())
            // A's edit is no longer its newest batch, in either zone.
            assertStatus(try a.run(["host", "add", "later-\(UUID().uuidString.prefix(8))", "--hostname", "later.example", "--password-stdin"],
                                   input: Array("later".utf8)), 0)
            try sync(a)
            let retire = ["CREDCTL_RETIRE_AFTER_SECONDS": "0"]
            assertStatus(try c.run(["sync", "--compact"], extraEnvironment: retire), 0)
            assertStatus(try a.run(["sync", "--compact"], extraEnvironment: retire), 0)
            XCTAssertFalse(FileManager.default.fileExists(atPath: objects + "/" + edit), "A's edit reaches B only through C's snapshot")
            for device in [b!, a!, b!] { try sync(device) }
        }
    }

    private func show(_ device: CredctlRunner) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try device.run("host", "show", "cx", "--json").stdout)) as? [String: Any])
    }

    private func configConflicts(_ device: CredctlRunner) throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(try device.run("conflicts", "list", "--json").stdout)) as? [String: Any]
        return (json?["conflicts"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "config" }
    }

    func testAPortEditAndAUserEditOnTwoDevicesBothHoldEverywhereInEveryOrder() throws {
        for order in ["A first", "B first", "interleaved", "relayed by C"] {
            do {
                let port = "\(2200 + Int.random(in: 0..<99))", user = "bob\(Int.random(in: 0..<99))"
                assertStatus(try a.run("host", "edit", "cx", "--port", port), 0)
                usleep(2_000)
                assertStatus(try b.run("host", "edit", "cx", "--user", user), 0)
                try syncAll(in: order)
                for device in [a!, b!] {
                    let host = try show(device)
                    XCTAssertEqual(host["port"] as? Int, Int(port), "\(order): the port holds")
                    XCTAssertEqual(host["user"] as? String, user, "\(order): the user name holds")
                    XCTAssertEqual(try configConflicts(device).count, 0, "\(order): no field lost")
                }
            }
        }
    }

    /// One device makes each use of an identity's key ask first while the other renames it:
    /// both hold on both, whatever the order of syncs.
    func testAConfirmationAndARenameOnTwoDevicesBothHoldEverywhereInEveryOrder() throws {
        for (index, order) in ["A first", "B first", "interleaved", "relayed by C"].enumerated() {
            let label = "key-\(index)"
            let key = try makeKey(at: directory + "/id-\(index)")
            assertStatus(try a.run("identity", "add", label, "--private-key", key), 0)
            for device in [a!, b!, c!] { assertStatus(try device.run("sync"), 0) }
            assertStatus(try a.run("identity", "edit", label, "--confirm"), 0)
            usleep(2_000)
            assertStatus(try b.run("identity", "edit", label, "--label", label + "-renamed"), 0)
            try syncAll(in: order)
            for device in [a!, b!] {
                let shown = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try device.run("identity", "show", label + "-renamed", "--json").stdout)) as? [String: Any])
                XCTAssertEqual(shown["confirm"] as? Bool, true, "\(order): the confirmation holds")
                XCTAssertEqual(try configConflicts(device).count, 0, "\(order): no field lost")
            }
        }
    }

    private func secretConflicts(_ device: CredctlRunner) throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(try device.run("conflicts", "list", "--json").stdout)) as? [String: Any]
        return (json?["conflicts"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "secret" }
    }

    /// The first scenario: A's password edit, then B's; whatever the order, both end
    /// with B's, A keeps its own (listed, restorable), and B keeps nothing. Restoring it makes A's
    /// win everywhere, and nobody keeps B's: the restore was made after seeing it.
    func testTheOlderOfTwoPasswordEditsIsKeptWhereItWasMadeInEveryOrder() throws {
        for order in ["A first", "B first", "interleaved", "relayed by C"] {
            assertStatus(try a.run(["host", "edit", "cx", "--password-stdin"], input: Array("A-version \(order)".utf8)), 0)
            usleep(2_000)
            assertStatus(try b.run(["host", "edit", "cx", "--password-stdin"], input: Array("B-version \(order)".utf8)), 0)
            try syncAll(in: order, zone: "secrets")
            for device in [a!, b!] {
                XCTAssertEqual(try device.run("read", "cred://host/cx/password").output, "B-version \(order)", order)
            }
            XCTAssertEqual(try secretConflicts(b).count, 0, "\(order): B made no losing edit")
            let kept = try secretConflicts(a)
            XCTAssertEqual(kept.count, 1, "\(order): A keeps its edit")
            let id = try XCTUnwrap(kept.first?["id"] as? Int)
            XCTAssertFalse(try a.run("conflicts", "list").output.contains("A-version"), "never shown by list")
            XCTAssertFalse(try a.run("conflicts", "show", String(id)).output.contains("A-version"), "nor by show without --reveal")
            XCTAssertEqual(try a.run("conflicts", "show", String(id), "--reveal").output, "A-version \(order)", "revealed into a pipe, as read does")
            let onTerminal = try a.runOnTerminal("conflicts show \(id) --reveal")
            XCTAssertTrue(onTerminal.contains("Refusing to print a secret to a terminal.") && onTerminal.hasSuffix("status 64"), onTerminal)
            XCTAssertFalse(onTerminal.contains("A-version"))
            XCTAssertTrue(try a.runOnTerminal("conflicts show \(id) --reveal --force-tty").hasPrefix("A-version \(order)"))
            assertStatus(try a.run("conflicts", "restore", String(id)), 0)
            for device in [a!, b!, a!] { assertStatus(try device.run("sync"), 0) }
            for device in [a!, b!] {
                XCTAssertEqual(try device.run("read", "cred://host/cx/password").output, "A-version \(order)", "\(order): restored everywhere")
                XCTAssertEqual(try secretConflicts(device).count, 0, "\(order): nothing kept after the restore")
            }
        }
    }

    func testTheOlderOfTwoPortEditsIsListedAndRestorableOnlyWhereItWasMade() throws {
        assertStatus(try a.run("host", "edit", "cx", "--port", "2200"), 0)
        usleep(2_000)
        assertStatus(try b.run("host", "edit", "cx", "--port", "2300"), 0)
        try syncAll(in: "A first")
        XCTAssertEqual(try show(a)["port"] as? Int, 2300)
        XCTAssertEqual(try configConflicts(b).count, 0, "B made no losing edit")
        let listed = try a.run("conflicts", "list")
        assertStatus(listed, 0)
        for expected in ["c1", "host 'cx'", "endpoint", "hostname=cx.example port=2200", "edit from ", "hostname=cx.example port=2300"] {
            XCTAssertTrue(listed.output.contains(expected), "\(expected) in:\n\(listed.output)")
        }
        XCTAssertTrue(try a.run("status").output.contains("1 losing field value kept"))
        let entry = try XCTUnwrap(try configConflicts(a).first)
        XCTAssertEqual((entry["kept"] as? [String: Any])?["port"] as? Int, 2200)
        XCTAssertEqual(((entry["winner"] as? [String: Any])?["values"] as? [String: Any])?["port"] as? Int, 2300)
        XCTAssertEqual((entry["winner"] as? [String: Any])?["device"] as? String, try deviceID(b))

        let shown = try a.run("conflicts", "show", "c1")
        for expected in ["Record:", "host 'cx'", "Field:", "endpoint", "Kept:", "port=2200", "Now:", "port=2300", "credctl conflicts restore c1"] {
            XCTAssertTrue(shown.output.contains(expected), "\(expected) in:\n\(shown.output)")
        }
        assertStatus(try a.run("conflicts", "show", "c1", "--reveal"), 64)
        assertStatus(try a.run("conflicts", "show", "c999"), 66)
        assertStatus(try a.run("conflicts", "restore", "c999"), 66)
        assertStatus(try a.run("conflicts", "restore", "cx"), 64)
        let restored = try a.run("conflicts", "restore", "c1")
        assertStatus(restored, 0)
        XCTAssertTrue(restored.output.contains("Restored the endpoint of host 'cx'"), restored.output)
        XCTAssertEqual(try configConflicts(a).count, 0)
        for device in [a!, b!, a!] { assertStatus(try device.run("sync"), 0) }
        for device in [a!, b!] {
            XCTAssertEqual(try show(device)["port"] as? Int, 2200, "the restored port wins everywhere")
            XCTAssertEqual(try configConflicts(device).count, 0, "made after seeing 2300: nobody keeps 2300")
        }
    }
}
