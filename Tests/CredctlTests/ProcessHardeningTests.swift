import Foundation
import XCTest

/// credctl keeps its memory to itself (non-dumpable, no core file) before it reads a secret.
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
}
