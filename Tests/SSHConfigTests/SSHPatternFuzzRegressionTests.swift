@testable import SSHConfig
import XCTest

/// Inputs the Host-pattern fuzzer (Fuzz/FuzzHostPattern) found, kept as regressions.
final class SSHPatternFuzzRegressionTests: XCTestCase {
    /// Dozens of `*` against a name they cannot match took exponential time (the fuzzer's
    /// input ran past its 5-second limit); now it answers at once.
    func testManyStarsAgainstANonMatchingNameAnswerAtOnce() {
        let pattern = String(repeating: "*", count: 40) + "=" + String(repeating: "*", count: 40) + "x"
        let name = String(repeating: "a", count: 200)
        let start = ContinuousClock.now
        XCTAssertFalse(SSHPattern.matches(pattern, name))
        XCTAssertTrue(SSHPattern.matches(pattern, name + "=ax"))
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(1))
    }

    /// A pattern as long as an ssh_config line can be no longer recurses once per character.
    func testAVeryLongPatternDoesNotExhaustTheStack() {
        let name = String(repeating: "a", count: 500_000)
        XCTAssertTrue(SSHPattern.matches(String(repeating: "?", count: 500_000), name))
        XCTAssertTrue(SSHPattern.matches(name, name.uppercased()))
        XCTAssertFalse(SSHPattern.matches(name + "b", name))
    }

    /// The rewritten matcher keeps ssh's meaning.
    func testWildcardsStillMatchLikeSsh() {
        let cases: [(String, String, Bool)] = [
            ("*", "", true), ("*", "anything", true), ("", "", true), ("", "a", false), ("?", "", false),
            ("a*b*c", "aXbYc", true), ("a*b*c", "abcab", false), ("a*b*c", "abcabc", true), ("*a", "bbba", true), ("*a", "ab", false),
            ("**a**", "ba", true), ("web-?", "web-10", false), ("*.internal", "db.INTERNAL", true), ("*.internal", "internal", false),
            ("a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false),
        ]
        for (pattern, name, expected) in cases {
            XCTAssertEqual(SSHPattern.matches(pattern, name), expected, "'\(pattern)' against '\(name)'")
        }
    }
}
