import ConfigTrack
import XCTest
import struct Identifiers.UUID

final class ConfigValidationTests: XCTestCase {
    // MARK: - Labels

    func testAcceptsOrdinaryAndUnicodeLabels() throws {
        for label in ["web-1", "a", "Production DB (eu-west)", "Ünïcödé-Straße", "東京サーバー", "🚀 launch box", "db 01",
                      String(repeating: "x", count: 128), String(repeating: "é", count: 128)] {
            XCTAssertNoThrow(try ConfigValidation.label(label, kind: "host"), label)
        }
    }

    func testRejectsEmptyLabel() {
        let error = assertConfigError(.invalid, try ConfigValidation.label("", kind: "host"))
        XCTAssertEqual(error?.message, "A host label must not be empty.")
    }

    func testRejectsLabelLongerThan128Characters() {
        let error = assertConfigError(.invalid, try ConfigValidation.label(String(repeating: "x", count: 129), kind: "group"))
        XCTAssertEqual(error?.message, "A group label must be at most 128 characters and 512 bytes (this one has 129 characters, 129 bytes).")
    }

    func testRejectsAShortLabelPiledWithCombiningMarks() {
        let label = "e" + String(repeating: "\u{301}", count: 300)
        XCTAssertEqual(label.count, 1)
        assertConfigError(.invalid, try ConfigValidation.label(label, kind: "host"))
    }

    func testRejectsControlCharacters() {
        for scalar in ["\n", "\t", "\u{7}", "\r", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}"] {
            let label = "web\(scalar)1"
            assertConfigError(.invalid, try ConfigValidation.label(label, kind: "host"), label.debugDescription)
        }
    }

    func testControlCharacterMessageNamesTheScalarAndHidesIt() {
        let error = assertConfigError(.invalid, try ConfigValidation.label("web\n1", kind: "host"))
        XCTAssertEqual(error?.message, "The host label 'web?1' contains a control or invisible character (U+A).")
    }

    func testRejectsFormatAndSeparatorCharacters() {
        // Right-to-left override, zero-width space, zero-width joiner, BOM, line and paragraph separators.
        for scalar in ["\u{202E}", "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{2028}", "\u{2029}", "\u{E000}"] {
            let label = "web\(scalar)1"
            let error = assertConfigError(.invalid, try ConfigValidation.label(label, kind: "host"), label.debugDescription)
            let hex = String(scalar.unicodeScalars.first!.value, radix: 16, uppercase: true)
            XCTAssertTrue(error?.message.hasSuffix("(U+\(hex)).") ?? false, error?.message ?? "")
        }
    }

    /// KNOWN FAILING (bug in `CanonicalUUID.printable`): messages echo the very bidi-override,
    /// zero-width and line-separator characters the label rule rejects, so a terminal shows the
    /// message reordered or split. They should be neutralised like control characters.
    func testErrorMessagesNeutraliseInvisibleCharacters() {
        let invisible: [Unicode.Scalar] = ["\u{202E}", "\u{200B}", "\u{2028}", "\u{FEFF}"]
        var echoed: [String] = []
        for scalar in invisible {
            let text = "web\(Character(scalar))1"
            let messages = [
                ("label", message(try ConfigValidation.label(text, kind: "host"))),
                ("hostname", message(try ConfigValidation.hostname(text))),
                ("username", message(try ConfigValidation.username(text + " "))),
                ("reference", message(try SecretReference(parsing: text))),
            ]
            for (field, message) in messages {
                XCTAssertFalse(message.isEmpty, "every one of these inputs is rejected")
                if message.unicodeScalars.contains(scalar) {
                    echoed.append("\(field) U+\(String(scalar.value, radix: 16, uppercase: true))")
                }
            }
        }
        XCTAssertEqual(echoed, [], "error messages echo invisible characters")
    }

    private func message(_ expression: @autoclosure () throws -> some Any) -> String {
        do {
            _ = try expression()
            return ""
        } catch {
            return (error as? ConfigError)?.message ?? "\(error)"
        }
    }

    func testRejectsLeadingOrTrailingWhitespace() {
        for label in [" web", "web ", "  ", "\u{A0}web", "web\u{3000}"] {
            assertConfigError(.invalid, try ConfigValidation.label(label, kind: "host"), label.debugDescription)
        }
        let error = assertConfigError(.invalid, try ConfigValidation.label(" web", kind: "identity"))
        XCTAssertEqual(error?.message, "The identity label ' web' must not start or end with white space.")
    }

    func testRejectsUUIDShapedLabelsInAnyCase() {
        for label in ["3f2a9c4e-8b1d-4e6f-a0c2-5d7e9f1b3a6c", "3F2A9C4E-8B1D-4E6F-A0C2-5D7E9F1B3A6C"] {
            let error = assertConfigError(.invalid, try ConfigValidation.label(label, kind: "host"), label)
            XCTAssertEqual(error?.message, "A host label must not look like a UUID ('\(label)'); UUIDs refer to records by id.")
        }
        XCTAssertNoThrow(try ConfigValidation.label("3f2a9c4e-8b1d-4e6f-a0c2-5d7e9f1b3a6c-old", kind: "host"))
    }

    // MARK: - Host names

    func testAcceptsNamesAndAddresses() throws {
        for name in ["example.org", "web-1.internal", "10.0.0.1", "::1", "fe80::1%eth0", "my_host", "a"] {
            XCTAssertEqual(try ConfigValidation.hostname(name), name)
        }
    }

    func testStripsIPv6Brackets() throws {
        XCTAssertEqual(try ConfigValidation.hostname("[::1]"), "::1")
        XCTAssertEqual(try ConfigValidation.hostname("[fe80::1%eth0]"), "fe80::1%eth0")
        assertConfigError(.invalid, try ConfigValidation.hostname("[]"))
        assertConfigError(.invalid, try ConfigValidation.hostname("[::1"))
    }

    func testRejectsOptionLikeHostname() {
        let error = assertConfigError(.invalid, try ConfigValidation.hostname("-oProxyCommand=x"))
        XCTAssertEqual(error?.message, "The hostname '-oProxyCommand=x' must not start with '-'.")
        assertConfigError(.invalid, try ConfigValidation.hostname("[-oProxyCommand=x]"))
    }

    func testRejectsShellAndWhitespaceCharacters() {
        for name in ["web 1", " web", "web;rm", "$(reboot)", "web`id`", "a|b", "a&b", "a/b", "web\n1", "wéb", "a@b", "a,b",
                     "x$IFS", "a'b", "a\"b", "a\\b", "%h.example", "web%1", "fe80::1%", "fe80::1%a%b", "fe80::1%eth0;id"] {
            assertConfigError(.invalid, try ConfigValidation.hostname(name), name.debugDescription)
        }
        let error = assertConfigError(.invalid, try ConfigValidation.hostname("a;b", field: "destination host"))
        XCTAssertEqual(error?.message, "The destination host 'a;b' may contain only letters, digits, '.', '-', '_' and, in an IPv6 address, ':' and one '%' before a zone.")
    }

    func testLengthLimitIs253() throws {
        XCTAssertNoThrow(try ConfigValidation.hostname(String(repeating: "a", count: 253)))
        let error = assertConfigError(.invalid, try ConfigValidation.hostname(String(repeating: "a", count: 254)))
        XCTAssertEqual(error?.message, "The hostname must be 1 to 253 characters.")
        assertConfigError(.invalid, try ConfigValidation.hostname(""))
    }

    // MARK: - Ports and user names

    func testPortRange() {
        XCTAssertNoThrow(try ConfigValidation.port(1))
        XCTAssertNoThrow(try ConfigValidation.port(22))
        XCTAssertNoThrow(try ConfigValidation.port(65_535))
        let zero = assertConfigError(.invalid, try ConfigValidation.port(0))
        XCTAssertEqual(zero?.message, "The port must be between 1 and 65535, not 0.")
        let high = assertConfigError(.invalid, try ConfigValidation.port(65_536, field: "listening port"))
        XCTAssertEqual(high?.message, "The listening port must be between 1 and 65535, not 65536.")
        assertConfigError(.invalid, try ConfigValidation.port(-22))
    }

    func testUsernames() {
        for name in ["root", "deploy.bot", "user@example.org", "ünïcode", "svc_backup-2", "a+b", "Ωμέγα", "ユーザー"] {
            XCTAssertNoThrow(try ConfigValidation.username(name), name)
        }
        let dash = assertConfigError(.invalid, try ConfigValidation.username("-oProxyCommand=x"))
        XCTAssertEqual(dash?.message, "The user name '-oProxyCommand=x' must not start with '-'.")
        for name in ["a b", " root", "root ", "ro\tot", "root\n", "ro\u{7}ot", "ro\u{A0}ot",
                     // What OpenSSH 9.2 pastes unquoted into the `sh -c` of a ProxyJump, and ssh's own tokens.
                     "x$IFS-oProxyCommand=touch\\$IFS/tmp/PWNED", "a;b", "a`id`", "$(id)", "a'b", "a\"b", "a\\b", "a|b", "a&b",
                     "a<b", "a>b", "a(b)", "a{b}", "%u", "a%%b", "a*b", "a?b", "a!b", "a#b", "a=b", "a/b", "a,b", "a:b", "~root",
                     "ro\u{200B}ot", "ro\u{2028}ot"] {
            assertConfigError(.invalid, try ConfigValidation.username(name), name.debugDescription)
        }
        let empty = assertConfigError(.invalid, try ConfigValidation.username(""))
        XCTAssertEqual(empty?.message, "A user name must be 1 to 256 bytes.")
        assertConfigError(.invalid, try ConfigValidation.username(String(repeating: "u", count: 257)))
        XCTAssertNoThrow(try ConfigValidation.username(String(repeating: "u", count: 256)))
    }
}
