import Foundation
import XCTest
import struct Identifiers.UUID

/// `credbench cli-report` (make bench-cli) pools a row's rounds: each row is timed once per
/// round, and its median and mean are those of every sample together, so a row timed while the
/// machine was slow and one timed while it was fast are compared on the same footing.
final class BenchReportRoundsTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-rounds-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/results", withIntermediateDirectories: true)
        try "one note\n".write(toFile: directory + "/results/notes.txt", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testRoundsOfARowArePooledSampleBySample() throws {
        // A: 1, 2, 3 ms while fast, 10, 11 ms while slow. B: 4 ms, then 6 ms.
        try export("01-1", command: "A", times: [0.001, 0.002, 0.003], user: 0.001)
        try export("01-2", command: "A", times: [0.010, 0.011], user: 0.003)
        try export("02-1", command: "B", times: [0.004], user: 0.002)
        try export("02-2", command: "B", times: [0.006], user: 0.002)
        let result = try report("--target", "B / A <= 10")
        XCTAssertEqual(result.status, 0, result.stderr)

        let rows = try reportRows()
        XCTAssertEqual(rows.map { $0["name"] as? String }, ["A", "B"], "one row per command, in file order")
        let a = try XCTUnwrap(rows[0]["result"] as? [String: Any])
        XCTAssertEqual((a["times"] as? [Double])?.count, 5)
        XCTAssertEqual(try XCTUnwrap(a["median"] as? Double), 0.003, accuracy: 1e-12, "the middle of all five samples")
        XCTAssertEqual(try XCTUnwrap(a["mean"] as? Double), 0.0054, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(a["min"] as? Double), 0.001, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(a["max"] as? Double), 0.011, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(a["user"] as? Double), (0.001 * 3 + 0.003 * 2) / 5, accuracy: 1e-12, "CPU time weighted by runs")
        let b = try XCTUnwrap(rows[1]["result"] as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(b["median"] as? Double), 0.005, accuracy: 1e-12, "an even count: the mean of the middle two")
        XCTAssertEqual(try XCTUnwrap(rows[1]["medianOverFloor"] as? Double), 0.005 / 0.003, accuracy: 1e-9, "ratios on pooled medians")
    }

    func testASingleExportPerRowIsReadAsBefore() throws {
        try export("01", command: "A", times: [0.002, 0.004], user: 0.001)
        try export("02", command: "B", times: [0.003], user: 0.001)
        let result = try report()
        XCTAssertEqual(result.status, 0, result.stderr)
        let a = try XCTUnwrap(try reportRows()[0]["result"] as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(a["median"] as? Double), 0.004, accuracy: 1e-12, "hyperfine's own figures, as exported")
        XCTAssertEqual((a["times"] as? [Double])?.count, 2)
    }

    func testRoundsThatNameDifferentCommandsAreRefused() throws {
        try export("01-1", command: "A", times: [0.001], user: 0.001)
        try export("01-2", command: "C", times: [0.002], user: 0.001)
        try export("02-1", command: "B", times: [0.001], user: 0.001)
        let result = try report()
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("do not name one command"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/out.json"), "no report from mixed rows")
    }

    /// One hyperfine `--export-json` file, with the fields hyperfine writes.
    private func export(_ name: String, command: String, times: [Double], user: Double) throws {
        let mean = times.reduce(0, +) / Double(times.count)
        let result: [String: Any] = ["command": command, "mean": mean, "stddev": 0.0, "median": times.sorted()[times.count / 2],
                                     "user": user, "system": 0.0005, "min": times.min()!, "max": times.max()!, "times": times]
        try JSONSerialization.data(withJSONObject: ["results": [result]]).write(to: URL(fileURLWithPath: "\(directory)/results/\(name).json"))
    }

    private func report(_ extra: String...) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CredctlRunner.binary).deletingLastPathComponent().appendingPathComponent("credbench")
        process.arguments = ["cli-report", "--results", directory + "/results", "--floor", "A", "--reference", "B",
                             "--output", directory + "/out.json"] + extra
        process.standardOutput = FileHandle.nullDevice
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    private func reportRows() throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/out.json"))
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(report["rows"] as? [[String: Any]])
    }
}
