import Foundation
import TestSupport
import XCTest
import struct Identifiers.UUID

/// The secret scans catch a real leak: a build of credctl made with `-DCREDVAULT_PLANTED_LEAK`
/// (`make test` builds it into `.build/planted-leak` and names it in `CREDVAULT_LEAK_BINARY`)
/// copies every secret it opens into a child's environment, a temporary file and an object beside
/// the remote's snapshots; the process sampler, the file scan and the remote scan each find it.
/// The same steps with the normal build leave nothing, and the normal build holds none of it.
final class PlantedLeakTests: CredctlTestCase {
    private let password = "Planted-\(UUID().uuidString.prefix(8))-Secret"

    /// Runs the steps with `binary`; returns what each scan found.
    private func leaks(with binary: String, in name: String) throws -> (processes: [String], files: [String], remote: [String]) {
        let root = directory + "/" + name
        for sub in ["/bin", "/tmp", "/remote"] { try FileManager.default.createDirectory(atPath: root + sub, withIntermediateDirectories: true) }
        // A stand-in ssh that lives long enough to be sampled.
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/bin/ssh", contents: Data("#!/bin/sh\nsleep 0.5\n".utf8), attributes: [.posixPermissions: 0o755]))
        var runner = CredctlRunner(vault: root + "/vault", keyFile: root + "/vault.key")
        runner.executable = binary
        runner.environment["PATH"] = root + "/bin:/usr/bin:/bin"
        runner.environment["TMPDIR"] = root + "/tmp"
        assertStatus(try runner.run("init"), 0)
        assertStatus(try runner.run("remote", "set", root + "/remote", "--recovery-key-file", root + "/recovery-key"), 0)
        assertStatus(try runner.run(["host", "add", "web", "--hostname", "web.example", "--user", "deploy", "--password-stdin"], input: Array(password.utf8)), 0)
        assertStatus(try runner.run("sync", "--compact"), 0)
        let secret = [Array(password.utf8)]
        let sampler = ProcessSampler(secrets: secret)
        assertStatus(try runner.run("ssh", "web"), 0)
        let sampled = sampler.stop()
        return (sampled.findings, SecretScan.findInFiles(secret, under: [root + "/tmp"]), SecretScan.findInFiles(secret, under: [root + "/remote"]))
    }

    func testEachScanCatchesThePlantedLeakAndTheNormalBuildHasNone() throws {
        guard let leaky = ProcessInfo.processInfo.environment["CREDVAULT_LEAK_BINARY"] else {
            throw XCTSkip("CREDVAULT_LEAK_BINARY is not set (make test builds the leaking credctl and sets it)")
        }
        let caught = try leaks(with: leaky, in: "leaky")
        // The stand-in ssh is a script: its process is `sh`, and the `sleep` it starts inherits the leak.
        XCTAssertFalse(caught.processes.isEmpty, "the process sampler missed the secret in ssh's environment")
        XCTAssertTrue(caught.files.contains { $0.contains("credvault-planted-leak-") }, "the file scan missed the temporary file: \(caught.files)")
        XCTAssertTrue(caught.remote.contains { $0.hasSuffix("-leak.chunk") }, "the remote scan missed the object: \(caught.remote)")

        let clean = try leaks(with: CredctlRunner.binary, in: "normal")
        XCTAssertEqual(clean.processes, [])
        XCTAssertEqual(clean.files, [])
        XCTAssertEqual(clean.remote, [])
        let normal = try Data(contentsOf: URL(fileURLWithPath: CredctlRunner.binary))
        XCTAssertNil(normal.range(of: Data("credvault-planted-leak".utf8)), "the normal build holds the planted leak")
    }
}
