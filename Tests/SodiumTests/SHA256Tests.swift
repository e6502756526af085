import Sodium
import XCTest

final class SHA256Tests: XCTestCase {
    func testKnownDigestsAndHMACs() throws {
        XCTAssertEqual(SHA256.hex(SHA256.hash([])), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(SHA256.hash(Array("abc".utf8))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // RFC 4231, test case 2.
        let mac = try SHA256.hmac(Array("what do ya want for nothing?".utf8), key: try SecretBytes(utf8: "Jefe"))
        XCTAssertEqual(mac.withUnsafeBytes { SHA256.hex($0) }, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }
}
