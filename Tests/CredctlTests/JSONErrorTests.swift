import Foundation
import XCTest

/// With `--json`, a failure is one JSON object on standard error — the code, message, hint and
/// exit status — whatever failed: parsing, a lookup, the key.
final class JSONErrorTests: CredctlTestCase {
    private func error(_ result: CredctlRunner.Result, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        XCTAssertTrue(result.stdout.isEmpty, "nothing on standard output", file: file, line: line)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any], result.stderr, file: file, line: line)
        XCTAssertEqual(document.count, 1, file: file, line: line)
        let error = try XCTUnwrap(document["error"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(error["exit_status"] as? Int, Int(result.status), file: file, line: line)
        XCTAssertNotNil(error["message"] as? String, file: file, line: line)
        XCTAssertTrue(error.keys.contains("hint"), file: file, line: line)
        return error
    }

    func testEveryKindOfFailureIsOneJSONObject() throws {
        let noVault = try credctl.run("host", "list", "--json")
        assertStatus(noVault, 66)
        XCTAssertEqual(try error(noVault)["code"] as? String, "noVault")
        try initVault()
        let missing = try credctl.run("--json", "host", "show", "nope")
        assertStatus(missing, 66)
        XCTAssertEqual(try error(missing)["code"] as? String, "notFound")
        let usage = try credctl.run("host", "list", "--json", "--bogus")
        assertStatus(usage, 64)
        let usageError = try error(usage)
        XCTAssertEqual(usageError["code"] as? String, "usage")
        XCTAssertTrue((usageError["message"] as? String)?.contains("--bogus") == true)
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "w.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        var keyless = credctl!
        keyless.environment["CREDCTL_KEY_FILE"] = nil
        let locked = try keyless.run("resolve", "web", "--reveal", "--json")
        assertStatus(locked, 77)
        XCTAssertEqual(try error(locked)["code"] as? String, "locked")
        let noData = try credctl.run("host", "add", "db", "--hostname", "d.example", "--json")
        assertStatus(noData, 64)
        XCTAssertEqual(try error(noData)["code"] as? String, "usage")
        // Without --json the same failure is prose.
        XCTAssertTrue(try credctl.run("host", "show", "nope").stderr.hasPrefix("credctl: error: No host 'nope'."))
    }
}
