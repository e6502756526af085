import Foundation
import XCTest

/// `credctl import keyring` against a real gnome-keyring whose items were made with
/// `secret-tool store`, as a user's other programs make them.
final class KeyringImportTests: CredctlTestCase {
    private var daemon: HeadlessKeyring!
    private var desktop: CredctlRunner!
    private let secrets = ["web-secret-1", "db-secret-2", "wifi-secret-3", "smb-secret-4", "changed-secret-5", "api-secret-6"]

    override func setUpWithError() throws {
        try super.setUpWithError()
        daemon = try HeadlessKeyring(provider: .gnomeKeyring)
        desktop = credctl!
        desktop.environment.merge(daemon.environment) { $1 }
        desktop.environment["CREDCTL_KEYRING_TIMEOUT_MS"] = "2000"
        try initVault()
    }

    override func tearDownWithError() throws {
        daemon = nil  // its bus and gnome-keyring stop now
        try super.tearDownWithError()
    }

    /// `secret-tool store --label=LABEL ATTRIBUTE VALUE …` with `secret` on standard input.
    private func store(_ label: String, _ attributes: [String], secret: String) throws {
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/secret-tool")
        tool.arguments = ["store", "--label=\(label)"] + attributes
        tool.environment = daemon.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        let input = Pipe()
        tool.standardInput = input
        try tool.run()
        input.fileHandleForWriting.write(Data(secret.utf8))
        try input.fileHandleForWriting.close()
        tool.waitUntilExit()
        XCTAssertEqual(tool.terminationStatus, 0, "secret-tool store \(label)")
    }

    private func importing(_ arguments: String...) throws -> [[String: Any]] {
        let result = try desktop.run(["import", "keyring", "--json"] + arguments)
        assertStatus(result, 0)
        for secret in secrets { XCTAssertFalse(result.output.contains(secret) || result.stderr.contains(secret), "a secret was printed") }
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
        return try XCTUnwrap(document?["items"] as? [[String: Any]])
    }

    private func actions(_ items: [[String: Any]]) -> [String: String] {
        Dictionary(items.map { ($0["item_label"] as? String ?? "", $0["action"] as? String ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    private func counts() throws -> [String: Int] {
        let status = try JSONSerialization.jsonObject(with: Data(try desktop.run("status", "--json").stdout)) as? [String: Any]
        return status?["counts"] as? [String: Int] ?? [:]
    }

    func testKeyringPasswordsBecomeDeviceOnlyHostsOnceAndSyncableAfterTheNextUnlock() throws {
        try store("web-1", ["server", "web1.example.com", "user", "deploy", "protocol", "ssh"], secret: secrets[0])
        try store("Password for root on db", ["server", "db.internal", "user", "root", "port", "2222", "protocol", "sftp"], secret: secrets[1])
        try store("Wi-Fi at home", ["setting-name", "802-11-wireless-security"], secret: secrets[2])
        try store("files", ["server", "nas.local", "protocol", "smb"], secret: secrets[3])
        try store("postgres", ["server", "pg.internal", "user", "app", "port", "5432"], secret: secrets[5])

        // A dry run lists everything and writes nothing.
        let planned = try importing("--dry-run")
        XCTAssertEqual(actions(planned), ["web-1": "created", "Password for root on db": "created", "Wi-Fi at home": "skipped", "files": "skipped",
                                          "postgres": "skipped"])
        XCTAssertTrue(planned.contains { ($0["reason"] as? String)?.contains("not SSH") == true })
        XCTAssertTrue(planned.contains { ($0["reason"] as? String)?.contains("no protocol attribute") == true }, "no protocol: not taken for SSH")
        XCTAssertEqual(try counts()["hosts"], 0)
        XCTAssertTrue(try desktop.run("import", "keyring", "--dry-run").output.contains("would create"))

        let imported = try importing()
        XCTAssertEqual(actions(imported)["web-1"], "created")
        XCTAssertEqual(try counts()["hosts"], 2)
        XCTAssertEqual(try counts()["device_only_secrets"], 2, "imported device-only first")
        XCTAssertEqual(try desktop.run("read", "cred://host/web-1/password").output, secrets[0])
        // A label with spaces gives way to user@host.
        XCTAssertEqual(try desktop.run("read", "cred://host/root@db.internal/password").output, secrets[1])
        let shown = try JSONSerialization.jsonObject(with: Data(try desktop.run("host", "show", "root@db.internal", "--json").stdout)) as? [String: Any]
        XCTAssertEqual(shown?["hostname"] as? String, "db.internal")
        XCTAssertEqual(shown?["port"] as? Int, 2222)
        XCTAssertEqual(shown?["user"] as? String, "root")

        // Twice: no duplicates. A changed keyring password does not overwrite the vault's.
        try store("web-1", ["server", "web1.example.com", "user", "deploy", "protocol", "ssh"], secret: secrets[4])
        // A host that exists without a password gets the keyring's (an item without a protocol,
        // picked by its attributes).
        assertStatus(try desktop.run("host", "add", "api", "--hostname", "api.example", "--user", "svc"), 0)
        try store("api token", ["host", "api.example", "username", "svc"], secret: secrets[2])
        let again = try importing()
        XCTAssertEqual(actions(again)["web-1"], "keptVaultPassword")
        XCTAssertEqual(actions(again)["Password for root on db"], "unchanged")
        XCTAssertEqual(actions(again)["api token"], "skipped")
        XCTAssertEqual(actions(try importing("--attribute", "host=api.example", "--dry-run"))["api token"], "passwordAdded")
        XCTAssertEqual(actions(try importing("--attribute", "host=api.example"))["api token"], "passwordAdded")
        XCTAssertEqual(try counts()["hosts"], 3)
        XCTAssertEqual(try desktop.run("read", "cred://host/web-1/password").output, secrets[0])
        XCTAssertEqual(try desktop.run("read", "cred://host/api/password").output, secrets[2])
        XCTAssertEqual(actions(try importing()).values.filter { $0 == "created" || $0 == "passwordAdded" }.count, 0)

        // With a remote set, the every-unlock migration makes them syncable.
        assertStatus(try desktop.run(["remote", "set", directory + "/remote", "--recovery-key-file", directory + "/recovery-key"]), 0)
        assertStatus(try desktop.run("read", "cred://host/web-1/password"), 0)
        XCTAssertEqual(try counts()["device_only_secrets"], 0)
        XCTAssertEqual(try counts()["syncable_secrets"], 3)
    }

    func testOnlyItemsWithTheGivenAttributesAndNoneFromALockedCollection() throws {
        try store("web-1", ["server", "web1.example.com", "user", "deploy", "protocol", "ssh"], secret: secrets[0])
        try store("db", ["server", "db.internal", "user", "root", "protocol", "ssh"], secret: secrets[1])
        XCTAssertEqual(actions(try importing("--attribute", "protocol=ssh", "--attribute", "user=deploy")), ["web-1": "created"])
        XCTAssertEqual(try counts()["hosts"], 1)

        try daemon.lockLogin()
        let locked = try importing()
        XCTAssertEqual(actions(locked)["db"], "skipped")
        XCTAssertTrue(try desktop.run("import", "keyring").output.contains("locked collection"))
        XCTAssertEqual(try counts()["hosts"], 1, "nothing from a locked collection")

        assertStatus(try desktop.run("import", "keyring", "--attribute", "=x"), 64)
        assertStatus(try desktop.run("import", "keyring", "--attribute", "user=a", "--attribute", "user=b"), 64)
    }

    func testWithoutAKeyringTheImportSaysWhyAndChangesNothing() throws {
        var runner = credctl!
        runner.environment["CREDCTL_KEYRING_TIMEOUT_MS"] = "1000"
        let refused = try runner.run("import", "keyring")
        assertStatus(refused, 69)
        XCTAssertTrue(refused.stderr.contains("no session bus"), refused.stderr)
        let silent = try HeadlessKeyring(provider: .silent)
        runner.environment.merge(silent.environment) { $1 }
        let start = Date()
        let unanswered = try runner.run("import", "keyring")
        assertStatus(unanswered, 69)
        XCTAssertTrue(unanswered.stderr.contains("did not answer"), unanswered.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 6)
    }

}
