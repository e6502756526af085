import Foundation
import XCTest

/// `identity edit` changes only the fields its options name — never the key, so hosts using the
/// identity keep it — and `identity add --confirm`, `show` and `list` say whether each use of
/// the key asks first. Bad input changes nothing.
final class IdentityEditTests: CredctlTestCase {
    private func show(_ label: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let result = try credctl.run("identity", "show", label, "--json")
        assertStatus(result, 0, file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any], file: file, line: line)
    }

    /// Label, user and confirmation as `identity show --json` gives them, and nothing else changed.
    private func fields(_ label: String, keeping original: [String: Any], file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let shown = try show(label, file: file, line: line)
        for key in ["id", "key_type", "public_key", "private_key_ref", "passphrase_ref", "private_key_state"] {
            XCTAssertEqual("\(shown[key] ?? "absent")", "\(original[key] ?? "absent")", key, file: file, line: line)
        }
        return [shown["label"] as? String ?? "?", shown["user"] as? String ?? "-", (shown["confirm"] as? Bool).map { "\($0)" } ?? "?"]
    }

    private func addLaptop() throws -> [String: Any] {
        try initVault()
        let key = try makeKey(at: directory + "/id_ed25519", comment: "me@laptop")
        assertStatus(try credctl.run("identity", "add", "laptop", "--private-key", key, "--user", "me"), 0)
        return try show("laptop")
    }

    func testEachOptionChangesItsFieldAloneAndHostsKeepTheIdentity() throws {
        let original = try addLaptop()
        assertStatus(try credctl.run("host", "add", "db", "--hostname", "db.internal", "--identity", "laptop"), 0)
        XCTAssertEqual(try fields("laptop", keeping: original), ["laptop", "me", "false"])

        let renamed = try credctl.run("identity", "edit", "laptop", "--label", "work")
        assertStatus(renamed, 0)
        XCTAssertEqual(renamed.output, "Updated identity 'work'.\n")
        XCTAssertEqual(try fields("work", keeping: original), ["work", "me", "false"])
        assertStatus(try credctl.run("identity", "show", "laptop"), 66)
        let host = try JSONSerialization.jsonObject(with: Data(try credctl.run("host", "show", "db", "--json").stdout)) as? [String: Any]
        XCTAssertEqual(host?["identity"] as? String, "work", "the host names the identity by id")

        assertStatus(try credctl.run("identity", "edit", "work", "--user", "bob"), 0)
        XCTAssertEqual(try fields("work", keeping: original), ["work", "bob", "false"])
        assertStatus(try credctl.run("identity", "edit", "WORK", "--no-user"), 0)
        XCTAssertEqual(try fields("work", keeping: original), ["work", "-", "false"])
        assertStatus(try credctl.run("identity", "edit", "work", "--confirm"), 0)
        XCTAssertEqual(try fields("work", keeping: original), ["work", "-", "true"])
        XCTAssertTrue(try credctl.run("identity", "show", "work").output.contains("\nConfirm use: yes, each use of the key asks first\n"))
        assertStatus(try credctl.run("identity", "edit", "work", "--no-confirm", "--label", "laptop", "--user", "me"), 0)
        XCTAssertEqual(try fields("laptop", keeping: original), ["laptop", "me", "false"])
        XCTAssertTrue(try credctl.run("identity", "show", "laptop").output.contains("\nConfirm use: no\n"))
    }

    func testAddConfirmIsShownByShowAndList() throws {
        try initVault()
        let key = try makeKey(at: directory + "/id_ed25519")
        let added = try credctl.run("identity", "add", "asks", "--private-key", key, "--confirm")
        assertStatus(added, 0)
        XCTAssertEqual(added.output, "Added identity 'asks' (ssh-ed25519, each use confirmed).\n")
        assertStatus(try credctl.run("identity", "add", "quiet", "--private-key", try makeKey(at: directory + "/id_quiet")), 0)
        XCTAssertEqual(try credctl.run("identity", "list").output, """
            LABEL  TYPE         USER  PASSPHRASE  CONFIRM
            asks   ssh-ed25519  -     -           yes
            quiet  ssh-ed25519  -     -           -

            """)
        let listed = try JSONSerialization.jsonObject(with: Data(try credctl.run("identity", "list", "--json").stdout)) as? [String: Any]
        XCTAssertEqual((listed?["identities"] as? [[String: Any]])?.map { $0["confirm"] as? Bool }, [true, false])
        XCTAssertEqual(try show("asks")["confirm"] as? Bool, true)
    }

    func testBadEditsAreRefusedAndChangeNothing() throws {
        let original = try addLaptop()
        let key = try makeKey(at: directory + "/id_other")
        assertStatus(try credctl.run("identity", "add", "other", "--private-key", key), 0)
        for (arguments, status, error) in [
            (["--confirm", "--no-confirm"], Int32(64), "credctl: error: --confirm and --no-confirm cannot be used together.\nUsage: credctl identity edit LABEL"),
            (["--user", "bob", "--no-user"], 64, "credctl: error: --user and --no-user cannot be used together.\nUsage: credctl identity edit LABEL"),
            (["--private-key", key], 64, "credctl: error: "),
            (["--label", "OTHER", "--confirm"], 65, "credctl: error: An identity labelled 'OTHER' already exists"),
            (["--label", "bad\u{7}label", "--confirm"], 65, "credctl: error: "),
            (["--user", "", "--confirm"], 65, "credctl: error: A user name must be 1 to 256 bytes."),
        ] {
            let result = try credctl.run(["identity", "edit", "laptop"] + arguments)
            assertStatus(result, status)
            XCTAssertTrue(result.stderr.hasPrefix(error), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.output, "")
            XCTAssertEqual(try fields("laptop", keeping: original), ["laptop", "me", "false"], "\(arguments) changed nothing")
        }
        assertStatus(try credctl.run("identity", "edit"), 64)
        let missing = try credctl.run("identity", "edit", "nope", "--confirm")
        assertStatus(missing, 66)
        XCTAssertEqual(missing.stderr, "credctl: error: No identity 'nope'.\ncredctl: hint: List them with the identity list command.\n")
    }

    /// It writes config alone: no key is needed, as listing needs none.
    func testAnEditNeedsNoUnlocking() throws {
        _ = try addLaptop()
        var locked = credctl!
        locked.environment["CREDCTL_KEY_FILE"] = nil
        try FileManager.default.moveItem(atPath: keyFile, toPath: keyFile + ".away")
        assertStatus(try locked.run("identity", "edit", "laptop", "--confirm"), 0)
        XCTAssertEqual(try locked.run("identity", "list").output.split(separator: "\n").last?.hasSuffix("yes"), true)
    }

    /// Processes editing one identity at once each make their edit again on the identity as the
    /// one before left it: every one lands.
    func testParallelEditsOfOneIdentityAllLand() throws {
        _ = try addLaptop()
        let users = (0..<8).map { "user\($0)" }
        let edits = users.map { ["identity", "edit", "laptop", "--user", $0] } + [["identity", "edit", "laptop", "--confirm"]]
        for (edit, status) in zip(edits, try credctl.runTogether(edits)) { XCTAssertEqual(status, 0, edit.joined(separator: " ")) }
        let shown = try show("laptop")
        XCTAssertTrue(users.contains(shown["user"] as? String ?? ""), "\(shown)")
        XCTAssertEqual(shown["confirm"] as? Bool, true)
    }
}
