import Replication
import XCTest
@testable import SecretTrack

/// Format 2 of secret bodies: the sealed body first (what an older build recognizes), then the
/// write context and its length; a context that cannot be the version's own is refused.
final class SecretPayloadTests: XCTestCase {
    private let version = RecordVersion(clock: 700, device: "device-b")
    private let sealed: [UInt8] = Array("CV-sealed-body-bytes".utf8)

    func testRoundTripsWithTheBodyFirst() throws {
        let context = VersionContext(["device-a": 300, "device-b": 700])
        let payload = SecretPayload.encode(sealed: sealed, context: context)
        XCTAssertEqual(Array(payload.prefix(sealed.count)), sealed, "an older build sees the sealed body where it always was")
        let decoded = try XCTUnwrap(SecretPayload.decode(payload, version: version))
        XCTAssertEqual(decoded.sealed, sealed)
        XCTAssertEqual(decoded.context, context)
    }

    func testContextsThatCannotBeTheWritersAreRefused() {
        for context in [VersionContext(["device-a": 300]), VersionContext(["device-b": 600]), VersionContext(["device-a": 800, "device-b": 700])] {
            XCTAssertNil(SecretPayload.decode(SecretPayload.encode(sealed: sealed, context: context), version: version), "\(context)")
        }
        let good = SecretPayload.encode(sealed: sealed, context: VersionContext(only: version))
        XCTAssertNil(SecretPayload.decode(Array(good.dropLast()), version: version), "cut short")
        XCTAssertNil(SecretPayload.decode(sealed + [0, 0, 0xff, 0xff], version: version), "a length past the start")
        XCTAssertNil(SecretPayload.decode([1, 2], version: version))
    }
}
