import XCTest
@testable import Sodium

/// Bytes from a hex string (test vectors only; never used for real secrets).
func hexBytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    precondition(digits.count % 2 == 0, "odd-length hex string")
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
        guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
            preconditionFailure("invalid hex digit in test vector")
        }
        bytes.append(byte)
    }
    return bytes
}

/// Lower-case hex of public bytes, so known-answer failures show a readable diff.
func hexString(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
}

/// Lower-case hex of a test vector held in guarded memory. Only for known-answer tests, whose
/// "secrets" are published vectors.
func hexString(_ secret: SecretBytes) -> String {
    secret.withUnsafeBytes { hexString(Array($0)) }
}

/// Asserts that `expression` throws a `SodiumError` with exactly `code`.
func assertSodiumError<T>(_ code: SodiumError.Code, _ expression: @autoclosure () throws -> T,
                          _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertThrowsError(try expression(), message, file: file, line: line) { error in
        XCTAssertEqual((error as? SodiumError)?.code, code, message, file: file, line: line)
    }
}
