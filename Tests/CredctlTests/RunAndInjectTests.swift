import Foundation
import XCTest

/// `credctl run` and `credctl inject`: secrets reach a command's environment or a rendered file,
/// never a command line, and a reference that cannot be opened stops everything.
final class RunAndInjectTests: TwoDeviceTestCase {
    private let secret = "s3cret with spaces & $dollar"

    override func setUpWithError() throws {
        try super.setUpWithError()
        assertStatus(try a.run(["host", "add", "db", "--hostname", "db.internal", "--password-stdin"], input: Array(secret.utf8)), 0)
        let key = directory + "/id_ed25519"
        let keygen = Process()
        keygen.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        keygen.arguments = ["-q", "-t", "ed25519", "-N", "", "-C", "test", "-f", key]
        try keygen.run()
        keygen.waitUntilExit()
        assertStatus(try a.run("identity", "add", "deploy", "--private-key", key), 0)
    }

    private func write(_ text: String, to name: String, mode: Int = 0o600) throws -> String {
        let path = directory + "/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode]))
        return path
    }

    func testRunPutsSecretsInTheEnvironmentAndNeverInTheCommandLine() throws {
        let script = "printf '%s\\n%s\\n%s\\n' \"$DBPW\" \"$INHERITED\" \"$PLAIN\"; tr '\\0' ' ' < /proc/$$/cmdline"
        var runner = a!
        runner.environment["INHERITED"] = "cred://host/db/password"
        runner.environment["PLAIN"] = "left alone"
        let result = try runner.run(["run", "--env", "DBPW=cred://host/db/password", "--", "sh", "-c", script])
        assertStatus(result, 0)
        let lines = result.output.components(separatedBy: "\n")
        XCTAssertEqual(lines[0], secret)
        XCTAssertEqual(lines[1], secret, "an inherited cred:// value is replaced")
        XCTAssertEqual(lines[2], "left alone")
        XCTAssertTrue(lines[3].hasPrefix("sh -c"), "the command line is the command's own")
        XCTAssertFalse(lines[3].contains("s3cret"), "the command line holds no secret")

        // The command's own exit status; 127 for one that does not exist.
        assertStatus(try a.run("run", "--", "sh", "-c", "exit 7"), 7)
        assertStatus(try a.run("run", "--", "no-such-command-here"), 127)
        assertStatus(try a.run("run", "--env", "1BAD=cred://host/db/password", "--", "true"), 64)
        assertStatus(try a.run("run", "--env", "X=cred://host/nowhere/password", "--", "true"), 66)
        // A private key is not a string an environment can hold when it contains NUL; this one does not.
        let key = try a.run("run", "--env", "KEY=cred://identity/deploy/privkey", "--", "sh", "-c", "printf %s \"$KEY\" | head -1")
        XCTAssertEqual(key.output, "-----BEGIN OPENSSH PRIVATE KEY-----\n")
    }

    /// COMMAND gets the secrets it was given and the rest of the environment, but not what
    /// leads to the vault and its key (nor the key given as an option).
    func testRunsCommandDoesNotInheritTheVaultOrItsKey() throws {
        var runner = a!
        runner.environment["CREDCTL_PASSPHRASE_FILE"] = directory + "/passphrase-file"
        runner.environment["KEPT"] = "kept"
        let result = try runner.run(["--key-file", directory + "/a.key", "run", "--env", "DBPW=cred://host/db/password", "--", "/usr/bin/env"])
        assertStatus(result, 0)
        let variables = result.output.split(separator: "\n").map(String.init)
        XCTAssertTrue(variables.contains("DBPW=\(secret)"), "\(variables.count) variables")
        XCTAssertTrue(variables.contains("KEPT=kept"))
        XCTAssertTrue(variables.contains("CREDCTL_INSECURE_FAST_KDF=1"), "other variables are inherited")
        for name in ["CREDCTL_VAULT", "CREDCTL_KEY_FILE", "CREDCTL_PASSPHRASE_FILE"] {
            XCTAssertFalse(variables.contains { $0.hasPrefix(name + "=") }, name)
        }
        XCTAssertFalse(result.output.contains("a.key"), "the key file's path reaches COMMAND in no form")
    }

    func testInjectRendersIntoAPrivateFileAndRefusesAWideOne() throws {
        let template = try write("user=app\npassword={{ cred://host/db/password }}\nother={{ not.a.reference }}\ntight={{cred://host/db/password}}\n", to: "app.tpl")
        let out = directory + "/app.conf"
        assertStatus(try a.run("inject", "-i", template, "-o", out), 0)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8),
                       "user=app\npassword=\(secret)\nother={{ not.a.reference }}\ntight=\(secret)\n")
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int), 0o600)

        // Standard input to standard output (not a terminal here).
        let piped = try a.run(["inject"], input: Array("[{{ cred://host/db/password }}]".utf8))
        assertStatus(piped, 0)
        XCTAssertEqual(piped.output, "[\(secret)]")

        let wide = try write("untouched", to: "wide.conf", mode: 0o644)
        let refused = try a.run("inject", "-i", template, "-o", wide)
        assertStatus(refused, 65)
        XCTAssertTrue(refused.stderr.contains("wider than 0600"), refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: wide, encoding: .utf8), "untouched")
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: directory).contains { $0.hasPrefix(".wide.conf.") }, "no temporary left")
    }

    func testANotYetSyncedReferenceRunsNothingAndWritesNothing() throws {
        try join()
        // The config arrives on B, the password does not.
        assertStatus(try a.run("sync"), 0)
        assertStatus(try b.run("sync", "--zone", "config"), 0)
        let marker = directory + "/ran"
        let run = try b.run("run", "--env", "PW=cred://host/db/password", "--", "touch", marker)
        assertStatus(run, 75)
        XCTAssertTrue(run.stderr.contains("not synced") || run.stderr.contains("have not synced"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker))

        let template = try write("pw={{ cred://host/db/password }}\n", to: "b.tpl")
        let existing = try write("old contents", to: "b.conf")
        let inject = try b.run("inject", "-i", template, "-o", existing)
        assertStatus(inject, 75)
        XCTAssertEqual(try String(contentsOfFile: existing, encoding: .utf8), "old contents")
        let fresh = directory + "/fresh.conf"
        assertStatus(try b.run("inject", "-i", template, "-o", fresh), 75)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh))

        assertStatus(try b.run("sync"), 0)
        assertStatus(try b.run("inject", "-i", template, "-o", fresh), 0)
        XCTAssertEqual(try String(contentsOfFile: fresh, encoding: .utf8), "pw=\(secret)\n")
    }

    func testInjectRefusesAWideFileOnStandardOutputAndKeepsAReplacedFilesOwner() throws {
        let template = try write("pw={{ cred://host/db/password }}\n", to: "t.tpl")
        let wide = try write("", to: "wide.out", mode: 0o644)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "\"$0\" inject -i \"$1\" > \"$2\"", CredctlRunner.binary, template, wide]
        shell.environment = a.environment
        shell.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try shell.run()
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 65)
        XCTAssertEqual(try String(contentsOfFile: wide, encoding: .utf8), "", "nothing written into a file others can read")

        // A 0600 file of another user (a service's) is replaced with its owner kept.
        let owned = try write("old", to: "service.conf")
        XCTAssertEqual(chown(owned, 65534, 65534), 0)
        assertStatus(try a.run("inject", "-i", template, "-o", owned), 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: owned)
        XCTAssertEqual((attributes[.ownerAccountID] as? NSNumber)?.intValue, 65534)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(try String(contentsOfFile: owned, encoding: .utf8), "pw=\(secret)\n")
    }
}
