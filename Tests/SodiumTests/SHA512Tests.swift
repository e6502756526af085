import Sodium
import XCTest

final class SHA512Tests: XCTestCase {
    /// FIPS 180-2's "abc" example, written into guarded memory.
    func testKnownDigest() throws {
        let digest = try SecretBytes(zeroedCount: SHA512.digestCount)
        Array("abc".utf8).withUnsafeBytes { input in digest.withUnsafeMutableBytes { SHA512.hash(input, into: $0) } }
        XCTAssertEqual(hexString(digest), "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                       + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    }
}
