import Foundation
import XCTest
@testable import ConfigTrack
import struct Identifiers.UUID

/// The hand-written UUID text conversions must agree with Foundation's exactly.
final class CanonicalUUIDTests: XCTestCase {
    func testTextAndParseAgreeWithFoundation() {
        for _ in 0..<1_000 {
            let id = UUID()
            let text = CanonicalUUID.text(id)
            XCTAssertEqual(text, id.uuidString.lowercased())
            XCTAssertEqual(CanonicalUUID.parse(text), id)
            XCTAssertNil(CanonicalUUID.parse(id.uuidString), "uppercase is not canonical")
            XCTAssertEqual(CanonicalUUID.parseAnyCase(id.uuidString), id)
        }
    }

    func testRejectsEverythingButThirtySixCharactersOfHexAndHyphens() {
        let good = "3f2a9c4e-8b1d-4e6f-a0c2-5d7e9f1b3a6c"
        for bad in ["", String(good.dropLast()), good + "0", good.replacingOccurrences(of: "-", with: "0"),
                    "3f2a9c4e08b1d-4e6f-a0c2-5d7e9f1b3a6c", "3f2a9c4g-8b1d-4e6f-a0c2-5d7e9f1b3a6c", "é" + String(good.dropFirst(2))] {
            XCTAssertNil(CanonicalUUID.parse(bad), bad)
            XCTAssertFalse(CanonicalUUID.looksLikeUUID(bad), bad)
        }
    }
}
