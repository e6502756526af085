import XCTest
@testable import Sodium

final class SecretBytesTests: XCTestCase {
    private func bytes(_ secret: SecretBytes) -> [UInt8] { secret.withUnsafeBytes { Array($0) } }

    func testDescriptionsAreRedacted() throws {
        let secret = try SecretBytes(utf8: "hunter2-s3cr3t")
        let hex = hexString(secret)
        let renderings = [
            secret.description, secret.debugDescription, String(describing: secret),
            String(reflecting: secret), "\(secret)", "\([secret])", "\(Optional(secret) as Any)",
        ]
        for text in renderings {
            XCTAssertTrue(text.contains("redacted"), text)
            XCTAssertFalse(text.contains("hunter2"), text)
            XCTAssertFalse(text.contains(hex), text)
        }
        XCTAssertEqual(secret.description, "SecretBytes(redacted, 14 bytes)")
        XCTAssertEqual(secret.debugDescription, "SecretBytes(redacted, 14 bytes)")
    }

    func testCopyingInitializers() throws {
        XCTAssertEqual(bytes(try SecretBytes(copying: [1, 2, 3])), [1, 2, 3])
        let raw: [UInt8] = [9, 8, 7, 6]
        XCTAssertEqual(bytes(try raw.withUnsafeBytes { try SecretBytes(copying: $0) }), [9, 8, 7, 6])
        XCTAssertEqual(bytes(try SecretBytes(utf8: "é")), [0xc3, 0xa9])
        XCTAssertEqual(bytes(try SecretBytes(zeroedCount: 5)), [0, 0, 0, 0, 0])
    }

    func testNegativeCountIsRejected() {
        assertSodiumError(.invalidArgument, try SecretBytes(zeroedCount: -1))
    }

    func testEquality() throws {
        XCTAssertTrue(try SecretBytes(copying: [1, 2, 3]) == SecretBytes(copying: [1, 2, 3]))
        XCTAssertFalse(try SecretBytes(copying: [1, 2, 3]) == SecretBytes(copying: [1, 2, 4]))
        XCTAssertFalse(try SecretBytes(copying: [0, 2, 3]) == SecretBytes(copying: [1, 2, 3]))
        let secret = try SecretBytes(copying: [5])
        XCTAssertTrue(secret == secret)
    }

    func testDifferentLengthsAreUnequal() throws {
        XCTAssertFalse(try SecretBytes(copying: [1, 2, 3]) == SecretBytes(copying: [1, 2]))
        XCTAssertFalse(try SecretBytes(copying: [0]) == SecretBytes(zeroedCount: 0))
        XCTAssertFalse(try SecretBytes(zeroedCount: 2) == SecretBytes(zeroedCount: 3))
    }

    func testRandomIsDistinct() throws {
        let first = try SecretBytes.random(count: 32)
        let second = try SecretBytes.random(count: 32)
        XCTAssertEqual(first.count, 32)
        XCTAssertFalse(first == second)
        XCTAssertFalse(first == (try SecretBytes(zeroedCount: 32)))
        XCTAssertEqual(try SecretBytes.random(count: 0).count, 0)
    }

    func testSlice() throws {
        let secret = try SecretBytes(copying: [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(bytes(try secret.slice(1..<4)), [1, 2, 3])
        XCTAssertEqual(bytes(try secret.slice(0..<6)), [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(try secret.slice(6..<6).count, 0)
        assertSodiumError(.invalidArgument, try secret.slice(4..<7))
        assertSodiumError(.invalidArgument, try secret.slice(-1..<2))
        // The slice is a copy: changing it leaves the original alone.
        let slice = try secret.slice(0..<2)
        slice.withUnsafeMutableBytes { $0[0] = 0xff }
        XCTAssertEqual(bytes(secret), [0, 1, 2, 3, 4, 5])
    }

    func testAppending() throws {
        let left = try SecretBytes(copying: [1, 2])
        let right = try SecretBytes(copying: [3, 4, 5])
        let empty = try SecretBytes(zeroedCount: 0)
        XCTAssertEqual(bytes(try left.appending(right)), [1, 2, 3, 4, 5])
        XCTAssertEqual(bytes(try left.appending(empty)), [1, 2])
        XCTAssertEqual(bytes(try empty.appending(right)), [3, 4, 5])
        XCTAssertEqual(try empty.appending(empty).count, 0)
    }

    func testZeroLength() throws {
        let empty = try SecretBytes(zeroedCount: 0)
        XCTAssertEqual(empty.count, 0)
        XCTAssertEqual(empty.withUnsafeBytes { $0.count }, 0)
        XCTAssertEqual(empty.withUnsafeMutableBytes { $0.count }, 0)
        XCTAssertTrue(empty == (try SecretBytes(copying: [])))
        XCTAssertEqual(empty.description, "SecretBytes(redacted, 0 bytes)")
    }

    func testMutableBytesAreVisible() throws {
        let secret = try SecretBytes(zeroedCount: 3)
        secret.withUnsafeMutableBytes { buffer in
            for index in buffer.indices { buffer[index] = UInt8(index + 10) }
        }
        XCTAssertEqual(bytes(secret), [10, 11, 12])
    }
}
