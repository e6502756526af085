import Foundation
import XCTest

/// Through credctl: a label typed in NFD or in another case is the label already there — never a
/// second host that `export ssh-config` must rename.
final class LabelSpellingTests: CredctlTestCase {
    func testLabelsThatReadTheSameAreOneHost() throws {
        try initVault()
        let composed = "caf\u{E9}-1", decomposed = "cafe\u{301}-1"
        assertStatus(try credctl.run("host", "add", decomposed, "--hostname", "c.example"), 0)
        let twice = try credctl.run("host", "add", composed, "--hostname", "other.example")
        assertStatus(twice, 65)
        XCTAssertTrue(twice.stderr.contains("already exists"), twice.stderr)
        let listed = try JSONSerialization.jsonObject(with: Data(try credctl.run("host", "list", "--json").stdout)) as? [String: Any]
        let labels = (listed?["hosts"] as? [[String: Any]])?.compactMap { $0["label"] as? String } ?? []
        XCTAssertEqual(labels.map { Array($0.utf8) }, [Array(composed.utf8)], "stored in NFC")
        XCTAssertTrue(try credctl.run("host", "show", decomposed).output.contains("c.example"))

        assertStatus(try credctl.run(["host", "add", "web-1", "--hostname", "w.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        let upper = try credctl.run("host", "add", "WEB-1", "--hostname", "w2.example")
        assertStatus(upper, 65)
        XCTAssertTrue(upper.stderr.contains("differ only by case"), upper.stderr)
        XCTAssertEqual(try credctl.run("read", "cred://host/WEB-1/password").output, "pw")
        assertStatus(try credctl.run("host", "edit", "web-1", "--label", "Web-1"), 0)
        let exported = try credctl.run("export", "ssh-config").output
        XCTAssertTrue(exported.contains("Host Web-1\n"), exported)
        XCTAssertFalse(exported.contains("Web-1-2") || exported.contains("web-1-2"), exported)
        assertStatus(try credctl.run("group", "add", "Prod"), 0)
        assertStatus(try credctl.run("group", "add", "PROD"), 65)
    }
}
