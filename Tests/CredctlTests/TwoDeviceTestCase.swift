import Foundation
import XCTest

/// Device A with a vault bound to a fresh remote directory; device B's vault directory, not
/// created yet (`join()` makes it join).
class TwoDeviceTestCase: CredctlTestCase {
    var a: CredctlRunner!
    var b: CredctlRunner!
    var remote: String { directory + "/remote" }
    var syncPassphrase: String { directory + "/sync-passphrase" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        a = CredctlRunner(vault: directory + "/a", keyFile: directory + "/a.key")
        b = CredctlRunner(vault: directory + "/b", keyFile: directory + "/b.key")
        _ = FileManager.default.createFile(atPath: syncPassphrase, contents: Data("correct horse battery".utf8), attributes: [.posixPermissions: 0o600])
        assertStatus(try a.run("init"), 0)
        assertStatus(try a.run("remote", "set", remote, "--sync-passphrase-file", syncPassphrase), 0)
    }

    func join() throws {
        assertStatus(try b.run("init", "--join", remote, "--sync-passphrase-file", syncPassphrase), 0)
    }
}
