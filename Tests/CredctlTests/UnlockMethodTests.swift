import Foundation
import XCTest

/// The ways a vault unlocks on one device change without touching anything else: a passphrase
/// added beside the key file, the key file removed, the passphrase changed — and every secret,
/// those of later epochs included, still opens with what is left; the last method stays.
final class UnlockMethodTests: TwoDeviceTestCase {
    private func file(_ name: String, _ text: String) -> String {
        let path = directory + "/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        return path
    }

    func testMethodsAreAddedRemovedAndChangedAndEveryEpochStillOpens() throws {
        assertStatus(try a.run(["host", "add", "old", "--hostname", "o.example", "--password-stdin"], input: Array("epoch-one".utf8)), 0)
        assertStatus(try a.run("vault", "rotate"), 0)
        assertStatus(try a.run(["host", "add", "new", "--hostname", "n.example", "--password-stdin"], input: Array("epoch-two".utf8)), 0)
        let first = file("first", "first passphrase"), second = file("second", "second passphrase")

        assertStatus(try a.run("unlock-method", "add", "passphrase", "--new-passphrase-file", first), 0)
        var byPassphrase = a!
        byPassphrase.environment["CREDCTL_KEY_FILE"] = nil
        XCTAssertEqual(try byPassphrase.run("--passphrase-file", first, "read", "cred://host/new/password").output, "epoch-two")
        assertStatus(try a.run("unlock-method", "add", "passphrase", "--new-passphrase-file", second), 65)

        assertStatus(try a.run("unlock-method", "remove", "keyfile"), 0)
        assertStatus(try a.run("read", "cred://host/old/password"), 77)
        let last = try byPassphrase.run("--passphrase-file", first, "unlock-method", "remove", "passphrase")
        assertStatus(last, 65)
        XCTAssertTrue(last.stderr.contains("only way to unlock"), last.stderr)

        assertStatus(try byPassphrase.run("--passphrase-file", first, "passphrase", "change", "--new-passphrase-file", second), 0)
        assertStatus(try byPassphrase.run("--passphrase-file", first, "read", "cred://host/old/password"), 77)
        for (label, secret) in [("old", "epoch-one"), ("new", "epoch-two")] {
            XCTAssertEqual(try byPassphrase.run("--passphrase-file", second, "read", "cred://host/\(label)/password").output, secret)
        }
        // Syncing and approving still work: the device's own keys were never rewrapped.
        assertStatus(try a.run("sync"), 0)
        try join()
        XCTAssertEqual(try b.run("read", "cred://host/new/password").output, "epoch-two")
    }
}
