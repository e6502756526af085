import ConfigTrack
import Foundation
import XCTest
import struct Identifiers.UUID

/// Ids are taken as git takes commit ids: whole, or a unique start of four characters or more.
final class IDPrefixTests: ConfigTestCase {
    func testAUniqueStartOfAnIdNamesTheRecordAndAnAmbiguousOneIsRefused() throws {
        let first = try store.save(Host(id: UUID(uuidString: "ABCD1111-0000-4000-8000-000000000001")!, label: "one", hostname: "one.example"))
        try store.save(Host(id: UUID(uuidString: "ABCD2222-0000-4000-8000-000000000002")!, label: "two", hostname: "two.example"))
        XCTAssertEqual(try store.host("abcd1").id, first.id)
        XCTAssertEqual(try store.host("ABCD1111").id, first.id, "any case")
        assertConfigError(.ambiguous, try store.host("abcd"))
        assertConfigError(.notFound, try store.host("abc"), "too short to be taken as an id")
        assertConfigError(.notFound, try store.host("ffff"))
        // A label always wins over an id that starts the same.
        let cafe = try saveHost("abcd1")
        XCTAssertEqual(try store.host("abcd1").id, cafe.id)
        let rule = try store.save(PortForwardRule(id: UUID(uuidString: "EEEE0000-0000-4000-8000-000000000003")!, hostID: first.id, kind: .dynamic,
                                                  bindAddress: nil, bindPort: 1080, destinationHost: nil, destinationPort: nil))
        XCTAssertEqual(try store.forwardID("eeee"), rule.id)
        assertConfigError(.notFound, try store.forwardID("dddd"))
    }
}
