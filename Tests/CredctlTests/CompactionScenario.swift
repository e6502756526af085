import Foundation
import XCTest

/// The garbage-collection scenario users see, on any backend: three devices publish history,
/// compact with `credctl sync --compact`, and only each device's newest batch is left beside a
/// snapshot; a fourth device joining afterwards holds exactly the same hosts and passwords.
struct CompactionScenario {
    /// Runs credctl as one device; the vault need not exist yet.
    let device: (String) -> CredctlRunner
    /// `init --join` arguments after the command (the remote and its options).
    let joinArguments: [String]
    /// Every object name on the remote.
    let names: () throws -> [String]

    func run(first: CredctlRunner, in test: CredctlTestCase, file: StaticString = #filePath, line: UInt = #line) throws {
        let devices = [first, device("b"), device("c")]
        for joiner in devices.dropFirst() { test.assertStatus(try joiner.run(["init", "--join"] + joinArguments), 0, file: file, line: line) }
        for round in 0..<4 {
            for (index, runner) in devices.enumerated() {
                let label = "host-\(index)-\(round)"
                test.assertStatus(try runner.run(["host", "add", label, "--hostname", label + ".example", "--password-stdin"],
                                                 input: Array("pw-\(label)".utf8)), 0, file: file, line: line)
                test.assertStatus(try runner.run("sync"), 0, file: file, line: line)
            }
        }
        test.assertStatus(try devices[1].run("host", "rm", "host-0-1"), 0, file: file, line: line)
        for runner in devices { test.assertStatus(try runner.run("sync"), 0, file: file, line: line) }
        XCTAssertGreaterThan(try batchCount(), 24, "history before compaction", file: file, line: line)

        var collected = 0
        for runner in devices {
            let result = try runner.run("sync", "--compact", "--json")
            test.assertStatus(result, 0, file: file, line: line)
            let zones = (try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])?["zones"] as? [[String: Any]] ?? []
            collected += zones.compactMap { $0["collected"] as? Int }.reduce(0, +)
        }
        XCTAssertGreaterThan(collected, 0, file: file, line: line)
        let names = try names()
        for zone in ["config", "secrets"] {
            for device in Set(names.compactMap { Self.batchDevice($0, zone: zone) }) {
                XCTAssertEqual(names.filter { Self.batchDevice($0, zone: zone) == device }.count, 1,
                               "\(zone): only \(device)'s newest batch is left", file: file, line: line)
            }
            XCTAssertTrue(names.contains { $0.hasPrefix("zones/\(zone)/") && $0.hasSuffix(".snapshot") }, "\(zone) snapshot", file: file, line: line)
        }

        let late = device("d")
        test.assertStatus(try late.run(["init", "--join"] + joinArguments), 0, file: file, line: line)
        let expected = try first.run("host", "list").output
        XCTAssertEqual(try late.run("host", "list").output, expected, file: file, line: line)
        XCTAssertFalse(expected.contains("host-0-1"), "the removed host stays removed", file: file, line: line)
        XCTAssertEqual(try late.run("read", "cred://host/host-2-3/password").output, "pw-host-2-3", file: file, line: line)
        XCTAssertEqual(try late.run("read", "cred://host/host-0-0/password").output, "pw-host-0-0", file: file, line: line)
        // Nothing older than each device's newest batch was left: the joiner's state came from
        // the snapshot.
    }

    private func batchCount() throws -> Int { try names().filter { $0.hasSuffix(".batch") }.count }

    /// The device of a batch object of `zone`, or nil for any other name.
    static func batchDevice(_ name: String, zone: String) -> String? {
        let parts = name.split(separator: "/")
        guard parts.count == 4, parts[0] == "zones", parts[1] == zone, parts[3].hasSuffix(".batch") else { return nil }
        return String(parts[2])
    }
}
