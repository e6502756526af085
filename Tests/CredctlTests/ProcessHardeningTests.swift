import Foundation
import XCTest

/// credctl keeps its memory to itself (non-dumpable, no core file) before it reads a secret,
/// and reads its key and passphrase files only through descriptors it has checked.
final class ProcessHardeningTests: CredctlTestCase {
    /// A credctl waiting on a pipe for a password it has not received yet is already
    /// non-dumpable and has a zero core limit.
    ///
    /// The dumpable flag cannot be read from outside, but the kernel shows it: every
    /// `/proc/PID` file of a non-dumpable process belongs to root instead of the process's user
    /// (proc(5)). That is observable only for a process that does not run as root, so as root
    /// (CI) credctl runs as `nobody` through setpriv.
    func testACredctlWaitingForAPasswordIsNotDumpableAndWritesNoCore() throws {
        let asRoot = getuid() == 0
        let setpriv = "/usr/bin/setpriv"
        if asRoot && !FileManager.default.isExecutableFile(atPath: setpriv) { throw XCTSkip("running credctl as another user needs setpriv (util-linux)") }
        let process = Process()
        let arguments = ["host", "add", "web", "--hostname", "h.example", "--password-stdin"]
        if asRoot {
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", CredctlRunner.binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: CredctlRunner.binary)
            process.arguments = arguments
        }
        process.environment = ["PATH": "/usr/bin:/bin", "CREDCTL_VAULT": directory + "/never-opened"]
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            try? stdin.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        let pid = process.processIdentifier
        let user = asRoot ? "65534" : String(getuid())
        // Waits until credctl itself (not setpriv) sleeps in its read of standard input.
        let deadline = Date().addingTimeInterval(10)
        var status = ""
        while Date() < deadline {
            status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            if status.contains("Name:\tcredctl"), status.contains("State:\tS"), status.contains("Uid:\t\(user)\t") { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertTrue(status.contains("Name:\tcredctl") && status.contains("State:\tS"), "credctl never waited on the pipe: \(status)")
        let owner = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: "/proc/\(pid)/status")[.ownerAccountID] as? NSNumber)
        XCTAssertEqual(owner.intValue, 0, "the /proc files of a dumpable process belong to its user (\(user))")
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        let core = try XCTUnwrap(limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") })
        XCTAssertEqual(core.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).prefix(2), ["0", "0"], String(core))
    }

    /// (A key file swapped after its checks is tested in KeyFileTests, where the swap can be
    /// made at that exact point.)
    func testAKeyFileThatIsASymbolicLinkIsRefusedWithTheReason() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "h.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        // A symbolic link is refused outright, with the reason.
        let link = directory + "/link.key"
        XCTAssertEqual(symlink(keyFile, link), 0)
        var linked = credctl!
        linked.environment["CREDCTL_KEY_FILE"] = link
        let refused = try linked.run("read", "cred://host/web/password")
        assertStatus(refused, 65)
        XCTAssertEqual(refused.stderr, "credctl: error: The key file \(link) is a symbolic link.\ncredctl: hint: Give the path of the key file itself.\n")
        XCTAssertTrue(refused.stdout.isEmpty)
    }

    func testAPassphraseFileOthersCanReadOrThatIsNotOursIsRefused() throws {
        let passphrase = directory + "/passphrase"
        XCTAssertTrue(FileManager.default.createFile(atPath: passphrase, contents: Data("correct horse".utf8), attributes: [.posixPermissions: 0o600]))
        var runner = CredctlRunner(vault: vaultPath, keyFile: nil)
        assertStatus(try runner.run("init", "--passphrase-file", passphrase), 0)
        for mode: mode_t in [0o644, 0o640, 0o604] {
            XCTAssertEqual(chmod(passphrase, mode), 0)
            let refused = try runner.run("host", "add", "db", "--hostname", "db.example", "--passphrase-file", passphrase, "--password-stdin", input: "pw")
            assertStatus(refused, 65)
            XCTAssertEqual(refused.stderr, """
                credctl: error: The passphrase file \(passphrase) is accessible by other users (mode \(String(mode, radix: 8))).
                credctl: hint: Run: chmod 600 \(passphrase)

                """)
        }
        // Binding a remote reads it too.
        let remote = directory + "/remote"
        let refused = try runner.run("remote", "set", remote, "--passphrase-file", passphrase)
        assertStatus(refused, 65)
        XCTAssertTrue(refused.stderr.contains("is accessible by other users"), refused.stderr)
        XCTAssertEqual(chmod(passphrase, 0o600), 0)
        assertStatus(try runner.run("host", "add", "db", "--hostname", "db.example", "--passphrase-file", passphrase, "--password-stdin", input: "pw"), 0)
        // A pipe (`<(…)` in a shell) is the user's and private: accepted.
        runner.environment["CREDCTL_PASSPHRASE_FILE"] = "/dev/stdin"
        XCTAssertEqual(try runner.run("read", "cred://host/db/password", input: "correct horse").output, "pw")
        guard getuid() == 0 else { return }
        XCTAssertEqual(chown(passphrase, 65534, 65534), 0)
        let foreign = try runner.run("host", "add", "db2", "--hostname", "db.example", "--passphrase-file", passphrase, "--password-stdin", input: "pw")
        assertStatus(foreign, 65)
        XCTAssertTrue(foreign.stderr.contains("The passphrase file \(passphrase) belongs to another user."), foreign.stderr)
    }
}
