import Foundation
import SQLite
import TestSupport
import XCTest
import struct Identifiers.UUID

/// A secret handed to credctl never shows in `ps`, /proc, the vault's files outside sealed
/// bodies, or the error output of a failing command.
final class SecretExposureTests: CredctlTestCase {
    private let password = "Pa55-\(UUID().uuidString.prefix(8))-secret"

    func testThePasswordIsNotInPsOrProcWhileCredctlHoldsIt() throws {
        try initVault()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CredctlRunner.binary)
        process.arguments = ["host", "add", "web", "--hostname", "h.example", "--password-stdin"]
        process.environment = credctl.environment
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Send the password but keep the pipe open: credctl now holds it and waits for the end.
        try stdin.fileHandleForWriting.write(contentsOf: Data(password.utf8))
        Thread.sleep(forTimeInterval: 0.3)
        let pid = process.processIdentifier
        let cmdline = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
        XCTAssertTrue(String(decoding: cmdline, as: UTF8.self).contains("--password-stdin"), "sampled the right process")
        // Every process, in every form the scan knows; it first finds a planted copy.
        let secret = [Array(password.utf8)]
        let decoy = Process()
        decoy.executableURL = URL(fileURLWithPath: "/bin/sleep")
        decoy.arguments = ["30"]
        decoy.environment = ["PLANTED": String(decoding: SecretScan.forms(of: secret[0])[3].bytes, as: UTF8.self)]
        try decoy.run()
        // Until the child has run exec, /proc shows the parent's image: asked until it has.
        var seen = false
        for _ in 0..<100 where !seen {
            seen = SecretScan.processes().contains { $0.pid == Int(decoy.processIdentifier) && SecretScan.find(secret, in: $0.bytes) != nil }
            if !seen { usleep(20_000) }
        }
        XCTAssertTrue(seen, "the scan finds a planted copy in a process's environment")
        decoy.terminate()
        decoy.waitUntilExit()
        let found = SecretScan.processes().compactMap { process in SecretScan.find(secret, in: process.bytes).map { "\($0) in pid \(process.pid) (\(process.program))" } }
        XCTAssertEqual(found, [])
        let ps = Process()
        ps.executableURL = URL(fileURLWithPath: "/bin/ps")
        ps.arguments = ["-eo", "pid,args"]
        let psOutput = Pipe()
        ps.standardOutput = psOutput
        try ps.run()
        let listing = String(decoding: psOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ps.waitUntilExit()
        XCTAssertTrue(listing.contains("credctl host add web"))
        XCTAssertFalse(listing.contains(password))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(try credctl.run("read", "cred://host/web/password").output, password)
    }

    func testNoVaultFileHoldsThePasswordInAnyEncoding() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "h.example", "--password-stdin"], input: Array(password.utf8)), 0)
        assertStatus(try credctl.run(["host", "edit", "web", "--port", "2222"]), 0)
        let secret = [Array(password.utf8)]
        let plant = vaultPath + "/planted"
        XCTAssertTrue(FileManager.default.createFile(atPath: plant, contents: Data(SecretScan.forms(of: secret[0])[4].bytes)))
        XCTAssertEqual(SecretScan.findInFiles(secret, under: [vaultPath]).count, 1, "the scan finds a planted copy")
        try FileManager.default.removeItem(atPath: plant)
        XCTAssertEqual(SecretScan.findInFiles(secret, under: [vaultPath]), [])
    }

    func testFailingCommandsNeverPrintThePassword() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "h.example", "--password-stdin"], input: Array(password.utf8)), 0)
        var failures: [CredctlRunner.Result] = []
        failures.append(try credctl.run(["host", "add", "web", "--hostname", "h.example", "--password-stdin"], input: Array(password.utf8)))
        failures.append(try credctl.run(["host", "add", "bad\u{1}label", "--hostname", "h", "--password-stdin"], input: Array(password.utf8)))
        failures.append(try credctl.run(["host", "edit", "web", "--password-stdin", "--no-password"], input: Array(password.utf8)))
        var wrongKey = credctl!
        _ = try CredctlRunner(vault: directory + "/other", keyFile: directory + "/other.key").run("init")
        wrongKey.environment["CREDCTL_KEY_FILE"] = directory + "/other.key"
        failures.append(try wrongKey.run("read", "cred://host/web/password"))
        // Tamper with the sealed body: the authentication failure must not leak plaintext.
        let secrets = try Connection(path: vaultPath + "/secrets.sqlite")
        try secrets.run("UPDATE secret_items SET sealed_body = substr(sealed_body, 1, 40) || x'00' || substr(sealed_body, 42)")
        failures.append(try credctl.run("read", "cred://host/web/password"))
        failures.append(try credctl.run("resolve", "web", "--reveal", "--json"))
        XCTAssertEqual(failures.map(\.status), [65, 65, 64, 77, 1, 1], "a duplicate and a bad label, a usage error, a wrong key, a damaged body twice")
        for result in failures {
            XCTAssertFalse(result.signaled, result.stderr)
            XCTAssertFalse(result.stderr.contains(password), result.stderr)
            XCTAssertFalse(result.output.contains(password))
        }
        XCTAssertTrue(failures[4].stderr.contains("failed authentication"), failures[4].stderr)
    }
}
