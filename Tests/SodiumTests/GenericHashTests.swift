import XCTest
@testable import Sodium

final class GenericHashTests: XCTestCase {
    /// A 24-byte domain label (keys BLAKE2b; libsodium accepts 16 to 64 bytes).
    private let domain = Array("credvault/v1/test-domain".utf8)

    /// Vectors computed with Python 3 `hashlib.blake2b(data, digest_size=32)`.
    func testUnkeyedKnownAnswers() {
        XCTAssertEqual(hexString(GenericHash.hash([])), "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8")
        XCTAssertEqual(hexString(GenericHash.hash(Array("abc".utf8))), "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319")
    }

    /// Computed with Python 3 `hashlib.blake2b(b"abc", digest_size=32, key=domain)`.
    func testKeyedKnownAnswer() {
        XCTAssertEqual(hexString(GenericHash.hash(Array("abc".utf8), domain: domain)), "06006c21fe156006cc853358865e75446a4222cfb1a1aa0ce8b2ed193b63ee1e")
    }

    func testRawBufferOverloadMatches() {
        let input = Array("abc".utf8)
        XCTAssertEqual(input.withUnsafeBytes { GenericHash.hash($0) }, GenericHash.hash(input))
        XCTAssertEqual(input.withUnsafeBytes { GenericHash.hash($0, domain: domain) }, GenericHash.hash(input, domain: domain))
        XCTAssertEqual(UnsafeRawBufferPointer(start: nil, count: 0).count, 0)
        XCTAssertEqual(GenericHash.hash(UnsafeRawBufferPointer(start: nil, count: 0)), GenericHash.hash([]))
    }

    func testDomainBoundaries() {
        let input = Array("abc".utf8)
        let shortest = GenericHash.hash(input, domain: [UInt8](repeating: 1, count: 16))
        let longest = GenericHash.hash(input, domain: [UInt8](repeating: 1, count: 64))
        XCTAssertEqual(shortest.count, 32)
        XCTAssertNotEqual(shortest, longest)
        XCTAssertNotEqual(shortest, GenericHash.hash(input))
    }

    /// Computed with Python 3 `hashlib.blake2b(b"key file contents", digest_size=32, key=domain)`.
    func testSecretHashKnownAnswer() throws {
        let digest = try GenericHash.secretHash(of: try SecretBytes(utf8: "key file contents"), domain: domain)
        XCTAssertEqual(hexString(digest), "4628b6df2eafaa1292b1a8c456076883783db9fb9a9827818089602fd4909252")
        XCTAssertEqual(hexString(digest), hexString(GenericHash.hash(Array("key file contents".utf8), domain: domain)))
    }

    func testSecretHashOfEmptySecret() throws {
        let digest = try GenericHash.secretHash(of: try SecretBytes(zeroedCount: 0), domain: domain)
        XCTAssertEqual(hexString(digest), hexString(GenericHash.hash([], domain: domain)))
    }

    func testSecretHashRejectsBadDomain() throws {
        let secret = try SecretBytes(utf8: "x")
        assertSodiumError(.invalidArgument, try GenericHash.secretHash(of: secret, domain: []))
        assertSodiumError(.invalidArgument, try GenericHash.secretHash(of: secret, domain: [UInt8](repeating: 0, count: 15)))
        assertSodiumError(.invalidArgument, try GenericHash.secretHash(of: secret, domain: [UInt8](repeating: 0, count: 65)))
    }
}
