import Foundation
import Keyring
import Sodium
import XCTest

/// `init --secret-backend keyring`: sealed bodies as items of a real gnome-keyring on a private
/// bus, their metadata and deletion markers in `secrets.sqlite`.
final class KeyringBackendTests: CredctlTestCase {
    private let bodies = Keyring(schema: "org.credvault.SecretBody", attributes: ["device_id", "reference", "incarnation", "version"])
    private var daemon: HeadlessKeyring!
    private var desktop: CredctlRunner!

    override func setUpWithError() throws {
        try super.setUpWithError()
        daemon = try HeadlessKeyring.shared()
        desktop = credctl!
        desktop.environment.merge(daemon.environment) { $1 }
        desktop.environment["CREDCTL_KEYRING_TIMEOUT_MS"] = "2000"
        assertStatus(try desktop.run("init", "--secret-backend", "keyring"), 0)
    }

    private func deviceID() throws -> String {
        let status = try JSONSerialization.jsonObject(with: Data(try desktop.run("status", "--json").stdout)) as? [String: Any]
        XCTAssertEqual(status?["secret_backend"] as? String, "keyring")
        return try XCTUnwrap(status?["device_id"] as? String)
    }

    /// This vault's body items: attributes without the schema, with their stored bytes.
    private func stored() throws -> [(attributes: [String: String], bytes: [UInt8])] {
        try bodies.search(["device_id": try deviceID()]).map { item in
            let attributes = item.attributes.filter { $0.key != "xdg:schema" }
            let bytes = try XCTUnwrap(try bodies.lookup(attributes)).withUnsafeBytes { Array($0) }
            return (attributes, bytes)
        }
    }

    private func passwordReference(_ host: String) throws -> String {
        let shown = try JSONSerialization.jsonObject(with: Data(try desktop.run("host", "show", host, "--json").stdout)) as? [String: Any]
        return try XCTUnwrap(shown?["password_ref"] as? String)
    }

    func testBodiesLiveSealedInTheKeyringAndFollowEditsAndDeletions() throws {
        assertStatus(try desktop.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("first-password".utf8)), 0)
        let reference = try passwordReference("web")
        var items = try stored()
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items.first?.attributes["reference"], reference)
        XCTAssertEqual(items.first?.attributes["incarnation"], "1")
        // Sealed in the keyring: the sealed-body header, never the secret's bytes.
        XCTAssertEqual(Array(items.first?.bytes.prefix(2) ?? []), [0x43, 0x56])
        XCTAssertNil(items.first?.bytes.firstRange(of: Array("first-password".utf8)))
        // secrets.sqlite keeps only the placeholder: neither the body nor the secret is there.
        let database = try Data(contentsOf: URL(fileURLWithPath: vaultPath + "/secrets.sqlite"))
        XCTAssertNil(database.firstRange(of: Data(items[0].bytes.suffix(40))))
        XCTAssertEqual(try desktop.run("read", "cred://host/web/password").output, "first-password")

        // An edit replaces the item: the old version's item goes once the new one is committed.
        assertStatus(try desktop.run(["host", "edit", "web", "--password-stdin"], input: Array("second-password".utf8)), 0)
        items = try stored()
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(try desktop.run("read", "cred://host/web/password").output, "second-password")

        // An identity's key and passphrase are bodies too.
        let key = directory + "/id_ed25519"
        XCTAssertEqual(try Self.shell("ssh-keygen -q -t ed25519 -N '' -C test -f \(key)"), 0)
        assertStatus(try desktop.run(["identity", "add", "deploy", "--private-key", key]), 0)
        XCTAssertEqual(try stored().count, 2)
        XCTAssertEqual(try desktop.run("read", "cred://identity/deploy/privkey").stdout, Array(try Data(contentsOf: URL(fileURLWithPath: key))))

        // Removing leaves a deletion marker in secrets.sqlite and nothing in the keyring.
        assertStatus(try desktop.run("host", "rm", "web"), 0)
        assertStatus(try desktop.run("identity", "rm", "deploy"), 0)
        XCTAssertEqual(try stored().count, 0)
        assertStatus(try desktop.run("read", reference), 66)
        XCTAssertTrue(try desktop.run("status").output.contains("2 deletion markers"))
    }

    func testADeletedBodyThatReappearsInTheKeyringIsNeverUsedAndIsCleanedUp() throws {
        assertStatus(try desktop.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("deleted-secret".utf8)), 0)
        let reference = try passwordReference("web")
        let backup = try stored()
        XCTAssertEqual(backup.count, 1)
        func restoreBackup() throws {
            for item in backup {
                try bodies.store(try SecretBytes(copying: item.bytes), label: "restored from a backup", values: item.attributes)
            }
        }

        assertStatus(try desktop.run("host", "edit", "web", "--no-password"), 0)
        XCTAssertEqual(try stored().count, 0)
        // The keyring is restored from a backup taken before the deletion.
        try restoreBackup()
        XCTAssertEqual(try stored().count, 1)
        let deleted = try desktop.run("read", reference)
        assertStatus(deleted, 66)
        XCTAssertEqual(deleted.stdout, [])

        // Setting it again starts a new incarnation; the unlock removed the reappeared item.
        assertStatus(try desktop.run(["host", "edit", "web", "--password-stdin"], input: Array("new-life".utf8)), 0)
        var items = try stored()
        XCTAssertEqual(items.map { $0.attributes["incarnation"] }, ["2"])
        XCTAssertEqual(try desktop.run("read", reference).output, "new-life")

        // Reappearing beside the new life: never read, and gone after the next unlock.
        try restoreBackup()
        XCTAssertEqual(try stored().count, 2)
        XCTAssertEqual(try desktop.run("read", "cred://host/web/password").output, "new-life")
        items = try stored()
        XCTAssertEqual(items.map { $0.attributes["incarnation"] }, ["2"])
    }

    func testAKeyringVaultWithoutItsKeyringSaysSoAndKeepsItsConfig() throws {
        assertStatus(try desktop.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        let noProvider = try HeadlessKeyring(provider: .none)
        let silent = try HeadlessKeyring(provider: .silent)
        let withoutLibsecret = try HeadlessKeyring.withoutLibsecret(in: directory).environment
        for (environment, reason) in [([String: String](), "no session bus"), (noProvider.environment, "nothing provides the Secret Service"),
                                      (silent.environment, "did not answer"), (withoutLibsecret, "install the Debian package libsecret-1-0.")] {
            var elsewhere = credctl!
            elsewhere.environment.merge(environment) { $1 }
            elsewhere.environment["CREDCTL_KEYRING_TIMEOUT_MS"] = "1000"
            let start = Date()
            let read = try elsewhere.run("read", "cred://host/web/password")
            assertStatus(read, 69)
            XCTAssertTrue(read.stderr.contains("keeps its secrets in the desktop keyring") && read.stderr.contains(reason), read.stderr)
            // The message says what to install; no hint sends the user to a desktop session.
            if environment == withoutLibsecret { XCTAssertTrue(read.stderr.hasSuffix(reason + "\n"), read.stderr) }
            XCTAssertEqual(read.stdout, [])
            XCTAssertLessThan(Date().timeIntervalSince(start), 6, "bounded")
            // Config never needs the keyring.
            XCTAssertTrue(try elsewhere.run("host", "list").output.contains("web"))
        }
        XCTAssertEqual(try desktop.run("read", "cred://host/web/password").output, "pw", "nothing was lost")
    }

    func testALockedCollectionLocksTheSecretsAndNeitherTheConfigNorWhatWasThere() throws {
        let own = try HeadlessKeyring(provider: .gnomeKeyring)
        var runner = CredctlRunner(vault: directory + "/locked", keyFile: directory + "/locked.key")
        runner.environment.merge(own.environment) { $1 }
        runner.environment["CREDCTL_KEYRING_TIMEOUT_MS"] = "2000"
        assertStatus(try runner.run("init", "--secret-backend", "keyring"), 0)
        assertStatus(try runner.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        try own.lockLogin()
        let read = try runner.run("read", "cred://host/web/password")
        assertStatus(read, 77)
        XCTAssertTrue(read.stderr.contains("locked"), read.stderr)
        let add = try runner.run(["host", "add", "db", "--hostname", "db.example", "--password-stdin"], input: Array("pw2".utf8))
        assertStatus(add, 77)
        let hosts = try runner.run("host", "list")
        XCTAssertTrue(hosts.output.contains("web") && !hosts.output.contains("db.example"), "the refused host was not half-written")
    }

    func testInitWithTheKeyringBackendRefusesWithoutAKeyringAndCreatesNothing() throws {
        var runner = CredctlRunner(vault: directory + "/other", keyFile: directory + "/other.key")
        let noProvider = try HeadlessKeyring(provider: .none)
        runner.environment.merge(noProvider.environment) { $1 }
        runner.environment["CREDCTL_KEYRING_TIMEOUT_MS"] = "1000"
        let refused = try runner.run("init", "--secret-backend", "keyring")
        assertStatus(refused, 69)
        XCTAssertTrue(refused.stderr.contains("nothing provides the Secret Service"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/other"))
        let misspelt = try runner.run("init", "--secret-backend", "gnome")
        assertStatus(misspelt, 64)
        XCTAssertTrue(misspelt.stderr.contains("sqlite or keyring"), misspelt.stderr)
    }

    private static func shell(_ command: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
