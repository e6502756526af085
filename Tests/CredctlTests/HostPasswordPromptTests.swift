import Foundation
import XCTest

/// A password host never ends up without its password by accident: `--auth password` asks on a
/// terminal (twice, no echo) and is refused without one; and parallel edits of one host all land.
final class HostPasswordPromptTests: CredctlTestCase {
    private func session(_ arguments: [String], _ steps: [TerminalSession.Step]) throws -> TerminalSession.Result {
        try TerminalSession.run(arguments, steps: steps, environment: credctl.environment, directory: directory)
    }

    func testAPasswordHostAsksForItsPasswordOnATerminalAndIsRefusedWithoutOne() throws {
        try initVault()
        let refused = try credctl.run("host", "add", "db", "--hostname", "db.example", "--auth", "password")
        assertStatus(refused, 64)
        XCTAssertTrue(refused.stderr.contains("--password-stdin"), refused.stderr)
        assertStatus(try credctl.run("host", "show", "db"), 66)

        let asked = try session(["host", "add", "db", "--hostname", "db.example", "--auth", "password"],
                                [.expect("Password for db:"), .type("open sesame\n"), .expect("Repeat the password:"), .type("open sesame\n"), .expect("Added host")])
        XCTAssertEqual(asked.status, 0, asked.shown)
        XCTAssertFalse(asked.shown.contains("sesame"), "no echo: \(asked.shown)")
        XCTAssertEqual(try credctl.run("read", "cred://host/db/password").output, "open sesame")

        let differ = try session(["host", "add", "db2", "--hostname", "db.example", "--auth", "password"],
                                 [.expect("Password for db2:"), .type("one\n"), .expect("Repeat the password:"), .type("two\n")])
        XCTAssertEqual(differ.status, 65, differ.shown)
        assertStatus(try credctl.run("host", "show", "db2"), 66)

        assertStatus(try credctl.run("host", "add", "web", "--hostname", "w.example"), 0)
        let switched = try session(["host", "edit", "web", "--auth", "password"],
                                   [.expect("Password for web:"), .type("pw2\n"), .expect("Repeat the password:"), .type("pw2\n"), .expect("Updated host")])
        XCTAssertEqual(switched.status, 0, switched.shown)
        XCTAssertEqual(try credctl.run("read", "cred://host/web/password").output, "pw2")
        assertStatus(try credctl.run("host", "edit", "db", "--auth", "password"), 0)
    }

    func testParallelEditsOfOneHostAllLand() throws {
        try initVault()
        assertStatus(try credctl.run("host", "add", "web", "--hostname", "w.example"), 0)
        let ports = (0..<10).map { String(2200 + $0) }, users = (0..<10).map { "user\($0)" }
        // Twenty processes started together, each editing one field of the same host.
        let edits = ports.map { ["host", "edit", "web", "--port", $0] } + users.map { ["host", "edit", "web", "--user", $0] }
        for (edit, status) in zip(edits, try credctl.runTogether(edits)) { XCTAssertEqual(status, 0, edit.joined(separator: " ")) }
        let shown = try JSONSerialization.jsonObject(with: Data(try credctl.run("host", "show", "web", "--json").stdout)) as? [String: Any]
        XCTAssertTrue(ports.contains(String(shown?["port"] as? Int ?? 0)), "\(shown ?? [:])")
        XCTAssertTrue(users.contains(shown?["user"] as? String ?? ""), "\(shown ?? [:])")
    }
}
