import KeyFormats
import XCTest

final class SSHWireWriterTests: XCTestCase {
    /// RFC 4251 §5's mpint examples: zero is empty; a set top bit gets a zero byte in front;
    /// leading zero bytes of the magnitude are dropped.
    func testMpintEncodings() {
        XCTAssertEqual(mpint([]), [0, 0, 0, 0])
        XCTAssertEqual(mpint([0, 0]), [0, 0, 0, 0])
        XCTAssertEqual(mpint([0x09, 0xa3, 0x78, 0xf9, 0xb2, 0xe3, 0x32, 0xa7]), [0, 0, 0, 8, 0x09, 0xa3, 0x78, 0xf9, 0xb2, 0xe3, 0x32, 0xa7])
        XCTAssertEqual(mpint([0x80]), [0, 0, 0, 2, 0x00, 0x80])
        XCTAssertEqual(mpint([0, 0, 0x7f]), [0, 0, 0, 1, 0x7f])
    }

    func testStringsAndIntegers() throws {
        var writer = SSHWireWriter()
        writer.uint32(0x0102_0304)
        writer.string("ssh-rsa")
        writer.string([UInt8]())
        XCTAssertEqual(writer.bytes, [1, 2, 3, 4, 0, 0, 0, 7] + Array("ssh-rsa".utf8) + [0, 0, 0, 0])
        // What the writer writes, the reader reads back.
        try writer.bytes.withUnsafeBytes { bytes in
            var reader = SSHWireReader(bytes)
            XCTAssertEqual(try reader.readUInt32(), 0x0102_0304)
            XCTAssertEqual(try reader.readName(), "ssh-rsa")
            XCTAssertEqual(try reader.readString().count, 0)
            XCTAssertTrue(reader.isAtEnd)
        }
        XCTAssertEqual(try SSHWireReader.typeName(of: writer.bytes.dropFirst(4).map { $0 }), "ssh-rsa")
    }

    private func mpint(_ magnitude: [UInt8]) -> [UInt8] {
        var writer = SSHWireWriter()
        writer.mpint(magnitude)
        return writer.bytes
    }
}
