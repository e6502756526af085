import XCTest
@testable import Sodium

final class Base64Tests: XCTestCase {
    /// RFC 4648 section 10.
    private let rfcVectors: [(plain: String, encoded: String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ]

    private func decodeSecret(_ text: String) throws -> [UInt8] {
        let secret = try Array(text.utf8).withUnsafeBytes { try Base64.decodeSecret($0) }
        return secret.withUnsafeBytes { Array($0) }
    }

    func testRFC4648Vectors() throws {
        for vector in rfcVectors {
            XCTAssertEqual(Base64.encode(Array(vector.plain.utf8)), vector.encoded)
            XCTAssertEqual(Base64.decode(vector.encoded), Array(vector.plain.utf8))
            XCTAssertEqual(try decodeSecret(vector.encoded), Array(vector.plain.utf8))
        }
    }

    func testStandardAlphabetWithPadding() {
        XCTAssertEqual(Base64.encode([0xfb, 0xff, 0xbf]), "+/+/")
        XCTAssertEqual(Base64.decode("+/+/"), [0xfb, 0xff, 0xbf])
        XCTAssertNil(Base64.decode("-_-_"), "URL-safe alphabet is not accepted")
    }

    func testRoundTrip() {
        let allBytes = [UInt8](0...255)
        XCTAssertEqual(Base64.decode(Base64.encode(allBytes)), allBytes)
        for length in 0...40 {
            let bytes = Array(allBytes.reversed().prefix(length))
            XCTAssertEqual(Base64.decode(Base64.encode(bytes)), bytes, "length \(length)")
        }
    }

    func testWhitespaceIsIgnored() throws {
        for text in ["Zm9v\nYmFy", " Zm9vYmFy", "Zm9vYmFy\r\n", "Zm 9v\tYm Fy", "\n\nZm9v\nYmFy\n\n"] {
            XCTAssertEqual(Base64.decode(text), Array("foobar".utf8), text.debugDescription)
            XCTAssertEqual(try decodeSecret(text), Array("foobar".utf8), text.debugDescription)
        }
        XCTAssertEqual(Base64.decode("Zg==\n"), Array("f".utf8))
        XCTAssertEqual(Base64.decode(" \n"), [])
    }

    func testInvalidInputIsRejected() {
        let invalid = [
            "Zg", "Zg=", "Zm9", "Zm9v=", "Zm9vY", "@@@@", "Zm9v!", "Zg==x", "Zg==Zg==",
            "Zh==",  // non-zero trailing bits: not the canonical encoding of any input
            "Zm9v\u{00A0}",  // no-break space is not whitespace here
            "=Zg=", "Zm9vYmFy=",
        ]
        for text in invalid {
            XCTAssertNil(Base64.decode(text), text.debugDescription)
            XCTAssertThrowsError(try decodeSecret(text), text.debugDescription) { error in
                XCTAssertEqual((error as? SodiumError)?.code, .malformed)
                XCTAssertEqual("\(error)", "Text is not valid Base64.")
            }
        }
    }

    /// U+0000 is not whitespace and must be rejected (libsodium's `strchr(ignore, c)` would
    /// match the ignore list's terminating NUL and skip it).
    func testNULIsNotWhitespace() throws {
        XCTAssertNil(Base64.decode("Zm9v\u{0}YmFy"))
        XCTAssertThrowsError(try decodeSecret("Zm9v\u{0}YmFy"))
    }
}
