import XCTest
@testable import Replication

final class ByteReaderTests: XCTestCase {
    private func encoded(_ raw: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        writer.data(raw)
        writer.u8(7)
        return writer.bytes
    }

    func testStringsRoundTripIncludingMultiByteCharacters() throws {
        for text in ["", "host.a1b2.password", "Zoë — 東京 🔑", "line\nbreak\u{0}nul"] {
            var writer = ByteWriter()
            writer.string(text)
            var reader = ByteReader(writer.bytes)
            XCTAssertEqual(try reader.string(), text)
            XCTAssertTrue(reader.isAtEnd)
        }
    }

    /// Invalid UTF-8 is refused, never repaired into another string (a repaired name would
    /// be another record).
    func testInvalidUTF8IsRefusedNotRepaired() {
        for raw: [UInt8] in [[0xff], [0x61, 0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0x61, 0x80, 0x62], [0xef, 0xbf]] {
            var reader = ByteReader(encoded(raw))
            XCTAssertThrowsError(try reader.string(), "\(raw)")
        }
        // The replacement character itself is valid text.
        var reader = ByteReader(encoded([0xef, 0xbf, 0xbd]))
        XCTAssertEqual(try reader.string(), "\u{fffd}")
        XCTAssertEqual(try reader.u8(), 7, "the reader moved exactly past the string")
    }

    func testLengthsBeyondTheBytesOrTheMaximumAreRefused() {
        var short = ByteReader([0, 0, 0, 9, 0x61])
        XCTAssertThrowsError(try short.string())
        var long = ByteReader(encoded(Array(repeating: 0x61, count: 10)))
        XCTAssertThrowsError(try long.string(maximum: 9))
    }
}
