import Foundation
import XCTest

/// A vault this process may not write — on a read-only mount, or a database file without write
/// permission — can still be listed, shown, resolved and read; a change is refused saying why.
/// Both need root (a private mount namespace; another user), as CI runs.
final class ReadOnlyVaultTests: CredctlTestCase {
    private func prepare() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root: a read-only bind mount, another user") }
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "w.example", "--password-stdin"], input: Array("s3cret".utf8)), 0)
        assertStatus(try credctl.run("host", "add", "db", "--hostname", "d.example", "--jump", "web"), 0)
    }

    /// Runs credctl with `arguments` through /bin/sh, prefixed by `prefix` (a mount or a user switch).
    private func run(_ prefix: String, _ arguments: String, environment: [String: String]) throws -> CredctlRunner.Result {
        try runApart(["/bin/sh", "-c", prefix + " " + CredctlRunner.binary + " " + arguments], environment: environment)
    }

    private func checkReadsWorkAndWritesSayWhy(_ prefix: String, environment: [String: String]) throws {
        let listed = try run(prefix, "host list", environment: environment)
        assertStatus(listed, 0)
        XCTAssertTrue(listed.output.contains("web") && listed.output.contains("db"), listed.output)
        assertStatus(try run(prefix, "host show db", environment: environment), 0)
        assertStatus(try run(prefix, "resolve db", environment: environment), 0)
        assertStatus(try run(prefix, "status", environment: environment), 0)
        let read = try run(prefix, "read cred://host/web/password", environment: environment)
        assertStatus(read, 0)
        XCTAssertEqual(read.output, "s3cret")
        let refused = try run(prefix, "host add new --hostname n.example", environment: environment)
        assertStatus(refused, 1)
        XCTAssertTrue(refused.stderr.contains("read-only here"), refused.stderr)
        XCTAssertFalse(try credctl.run("host", "list").output.contains("new"))
    }

    func testAVaultOnAReadOnlyMountIsReadable() throws {
        try prepare()
        try checkReadsWorkAndWritesSayWhy("unshare -m sh -c 'mount --bind \"$CREDCTL_VAULT\" \"$CREDCTL_VAULT\" && mount -o remount,ro,bind \"$CREDCTL_VAULT\" && exec \"$0\" \"$@\"'",
                                          environment: credctl.environment)
    }

    func testADatabaseWithoutWritePermissionIsReadable() throws {
        try prepare()
        // Another user, who owns the vault and its key, but whose databases are mode 0400.
        XCTAssertEqual(chmod(directory, 0o711), 0)
        for path in [vaultPath, keyFile] + (try FileManager.default.contentsOfDirectory(atPath: vaultPath)).map({ vaultPath + "/" + $0 }) {
            XCTAssertEqual(chown(path, 65534, 65534), 0, path)
        }
        for name in ["config.sqlite", "secrets.sqlite"] { XCTAssertEqual(chmod(vaultPath + "/" + name, 0o400), 0) }
        var environment = credctl.environment
        environment["HOME"] = "/nonexistent"
        try checkReadsWorkAndWritesSayWhy("setpriv --reuid=65534 --regid=65534 --clear-groups", environment: environment)
    }
}
