import Foundation
import XCTest

/// Device A with a vault bound to a fresh remote directory; device B's vault directory, not
/// created yet (`join()` makes it join).
class TwoDeviceTestCase: CredctlTestCase {
    var a: CredctlRunner!
    var b: CredctlRunner!
    var remote: String { directory + "/remote" }
    /// The remote's recovery key, written by A when it creates the remote; B joins with it.
    var recoveryKey: String { directory + "/recovery-key" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        a = CredctlRunner(vault: directory + "/a", keyFile: directory + "/a.key")
        b = CredctlRunner(vault: directory + "/b", keyFile: directory + "/b.key")
        assertStatus(try a.run("init"), 0)
        assertStatus(try a.run("remote", "set", remote, "--recovery-key-file", recoveryKey), 0)
    }

    func join() throws {
        assertStatus(try b.run("init", "--join", remote, "--recovery-key-file", recoveryKey), 0)
    }
}
