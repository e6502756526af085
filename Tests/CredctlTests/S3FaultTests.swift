import Foundation
import TestSupport
import XCTest
import struct Identifiers.UUID

/// `credctl sync` through a fault-injecting proxy in front of a real SeaweedFS: each failure a
/// store or a network can produce ends in the documented state and exit status, loses nothing,
/// and a later sync succeeds.
final class S3FaultTests: CredctlTestCase {
    nonisolated(unsafe) private static var shared: SeaweedServer?
    private var proxy: FaultyS3Proxy!
    private var a: CredctlRunner!
    private var b: CredctlRunner!
    private var edits = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        if Self.shared == nil { Self.shared = try SeaweedServer() }
        let server = try XCTUnwrap(Self.shared)
        proxy = try FaultyS3Proxy(upstream: server.endpoint, directory: directory)
        let address = "s3://\(server.bucket)/faults-\(UUID().uuidString.lowercased())"
        func device(_ name: String) -> CredctlRunner {
            var runner = CredctlRunner(vault: directory + "/" + name, keyFile: directory + "/" + name + ".key")
            runner.environment["AWS_ACCESS_KEY_ID"] = SeaweedServer.accessKey
            runner.environment["AWS_SECRET_ACCESS_KEY"] = server.secretKey
            // A hung request gives up after 2 s instead of 15.
            runner.environment["CREDCTL_S3_TIMEOUT_SECONDS"] = "2"
            return runner
        }
        a = device("a")
        b = device("b")
        let options = ["--endpoint", proxy.endpoint, "--path-style", "--recovery-key-file", directory + "/recovery-key"]
        assertStatus(try a.run("init"), 0)
        assertStatus(try a.run(["remote", "set", address] + options), 0)
        assertStatus(try a.run("sync"), 0)
        assertStatus(try b.run(["init", "--join", address] + options), 0)
    }

    /// A edits under `fault`; A's sync ends with `status`; then, the fault spent or lifted, A
    /// and B sync cleanly and B has the edit.
    private func scenario(_ fault: FaultyS3Proxy.Fault, on target: FaultyS3Proxy.Target, times: Int, syncing runner: String = "a",
                          exits status: Int32, says reason: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        edits += 1
        let label = "edit-\(edits)"
        assertStatus(try a.run(["host", "add", label, "--hostname", "\(label).example", "--password-stdin"], input: Array("secret-\(edits)".utf8)), 0, file: file, line: line)
        if runner == "b" { assertStatus(try a.run("sync"), 0, file: file, line: line) }
        try proxy.inject(fault, on: target, times: times)
        let spoiled = try (runner == "a" ? a : b).run("sync")
        XCTAssertFalse(spoiled.signaled, file: file, line: line)
        XCTAssertEqual(spoiled.status, status, "\(fault) on \(target): \(spoiled.stderr)", file: file, line: line)
        XCTAssertGreaterThan(try proxy.spoiled(), 0, "the fault was met", file: file, line: line)
        if let reason { XCTAssertTrue(spoiled.stderr.contains(reason), spoiled.stderr, file: file, line: line) }
        if status != 0 {
            let state = try (runner == "a" ? a : b).run("status").output
            XCTAssertTrue(state.contains("localFallback"), state, file: file, line: line)
        }
        try proxy.inject(.status500, on: .any, times: 0)
        assertStatus(try a.run("sync"), 0, file: file, line: line)
        assertStatus(try b.run("sync"), 0, file: file, line: line)
        XCTAssertEqual(try b.run("read", "cred://host/\(label)/password").output, "secret-\(edits)", "nothing lost", file: file, line: line)
    }

    func testPassingFailuresAreRetriedWithinTheSync() throws {
        try scenario(.status503, on: .put, times: 2, exits: 0)
        try scenario(.status500, on: .list, times: 1, exits: 0)
        try scenario(.status429, on: .any, times: 2, exits: 0)
        try scenario(.hang, on: .list, times: 1, exits: 0)
        try scenario(.reset, on: .get, times: 1, syncing: "b", exits: 0)
    }

    func testAStoreThatKeepsFailingEndsTheSyncWith69AndTheNextSyncSendsEverything() throws {
        try scenario(.status503, on: .any, times: 100, exits: 69, says: "keeps failing (HTTP 503 ServiceUnavailable) after 5 attempts")
        try scenario(.hang, on: .any, times: 100, exits: 69, says: "keeps failing")
    }

    func testAnswersThatAreNotFailuresOfTheStoreAreSaidAndWaitForTheNextSync() throws {
        try scenario(.truncate, on: .list, times: 1, exits: 69, says: "cut a listing short without a continuation token")
        try scenario(.status501, on: .put, times: 1, exits: 69, says: "NotImplemented")
        try scenario(.status409, on: .put, times: 1, exits: 69, says: "another write to it is in flight")
    }
}
