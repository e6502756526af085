import Sodium
import XCTest

final class Poly1305Tests: XCTestCase {
    /// RFC 8439 §2.5.2; a changed tag, message or key, or a short tag, does not verify.
    func testVerifiesKnownTag() {
        let key = hexBytes("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b")
        let message = Array("Cryptographic Forum Research Group".utf8)
        let tag = hexBytes("a8061dc1305136c6c22b8baf0c0127a9")
        XCTAssertTrue(verify(tag, message, key))
        XCTAssertFalse(verify(tag.map { $0 ^ 1 }, message, key))
        XCTAssertFalse(verify(tag, message + [0], key))
        XCTAssertFalse(verify(tag, message, key.reversed()))
        XCTAssertFalse(verify(Array(tag.prefix(15)), message, key))
    }

    private func verify(_ tag: [UInt8], _ message: [UInt8], _ key: [UInt8]) -> Bool {
        tag.withUnsafeBytes { tag in message.withUnsafeBytes { message in key.withUnsafeBytes { Poly1305.verify(tag, of: message, key: $0) } } }
    }
}
