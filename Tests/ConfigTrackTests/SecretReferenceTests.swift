import ConfigTrack
import Foundation
import XCTest
import struct Identifiers.UUID

final class SecretReferenceTests: XCTestCase {
    let id = "3f2a9c4e-8b1d-4e6f-a0c2-5d7e9f1b3a6c"

    func testParsesTheThreeFormsAndRoundTripsThroughKey() throws {
        let owner = try XCTUnwrap(UUID(uuidString: id))
        let cases: [(String, SecretReference)] = [
            ("host.\(id).password", .hostPassword(owner)),
            ("identity.\(id).privkey", .identityPrivateKey(owner)),
            ("identity.\(id).passphrase", .identityPassphrase(owner)),
        ]
        for (text, expected) in cases {
            let parsed = try SecretReference(parsing: text)
            XCTAssertEqual(parsed, expected, text)
            XCTAssertEqual(parsed.owner, owner, text)
            XCTAssertEqual(parsed.key, text)
            XCTAssertEqual(parsed.description, text)
            XCTAssertEqual(try SecretReference(parsing: parsed.key), parsed)
        }
    }

    func testKeyIsAlwaysLowercase() {
        let owner = UUID()
        let key = SecretReference.hostPassword(owner).key
        XCTAssertEqual(key, "host.\(owner.uuidString.lowercased()).password")
        XCTAssertEqual(key, key.lowercased())
    }

    func testFieldsAreDistinct() {
        let owner = UUID()
        XCTAssertNotEqual(SecretReference.identityPrivateKey(owner), .identityPassphrase(owner))
        XCTAssertNotEqual(SecretReference.hostPassword(owner), .hostPassword(UUID()))
    }

    func testRejectsUppercaseUUID() {
        assertConfigError(.invalid, try SecretReference(parsing: "host.\(id.uppercased()).password"))
        assertConfigError(.invalid, try SecretReference(parsing: "host.3F2a9c4e-8b1d-4e6f-a0c2-5d7e9f1b3a6c.password"))
    }

    func testRejectsMissingParts() {
        for text in ["host.\(id)", "\(id).password", "host..password", ".\(id).password", "host.\(id).",
                     "host", "host.password", id] {
            assertConfigError(.invalid, try SecretReference(parsing: text), text)
        }
    }

    func testRejectsExtraDots() {
        for text in ["host.\(id).password.", "host.\(id).password.x", ".host.\(id).password", "host..\(id).password",
                     "host.\(id)..password"] {
            assertConfigError(.invalid, try SecretReference(parsing: text), text)
        }
    }

    func testRejectsFieldOfTheWrongKind() {
        for text in ["host.\(id).privkey", "host.\(id).passphrase", "identity.\(id).password",
                     "group.\(id).password", "forward.\(id).password", "Host.\(id).password", "host.\(id).Password"] {
            assertConfigError(.invalid, try SecretReference(parsing: text), text)
        }
    }

    func testRejectsWhitespaceAndEmpty() {
        for text in ["", " ", " host.\(id).password", "host.\(id).password ", "host.\(id).password\n", "host. \(id).password",
                     "host.\(id) .password", "\thost.\(id).password", "host.\(id).pass word"] {
            assertConfigError(.invalid, try SecretReference(parsing: text), text.debugDescription)
        }
    }

    func testRejectsMultibyteCharactersWhereTheUUIDBelongs() {
        // 36 bytes of UTF-8 in the UUID's place, cut mid-character by a byte-offset slice.
        let owner = "é" + String(id.dropFirst(3)) + "x"
        XCTAssertEqual(owner.utf8.count, 36)
        assertConfigError(.invalid, try SecretReference(parsing: "host.\(owner).password"), owner)
        assertConfigError(.invalid, try SecretReference(parsing: "host." + String(repeating: "é", count: 18) + ".password"))
    }

    func testRejectsMalformedUUIDs() {
        for owner in ["3f2a9c4e8b1d4e6fa0c25d7e9f1b3a6c", "{\(id)}", "3f2a9c4e-8b1d-4e6f-a0c2-5d7e9f1b3a6", "3f2a9c4e-8b1d-4e6f-a0c2-5d7e9f1b3a6cc",
                      "zf2a9c4e-8b1d-4e6f-a0c2-5d7e9f1b3a6c"] {
            assertConfigError(.invalid, try SecretReference(parsing: "host.\(owner).password"), owner)
        }
    }

    func testErrorMessageIsPrintableAndHintShowsTheForms() {
        let error = assertConfigError(.invalid, try SecretReference(parsing: "host.x\n.password"))
        XCTAssertEqual(error?.message, "'host.x?.password' is not a secret reference.")
        XCTAssertEqual(error?.hint, "References look like host.<uuid>.password, identity.<uuid>.privkey or identity.<uuid>.passphrase, with a lowercase UUID.")
    }

    func testOrderingIsByKey() {
        let a = SecretReference.hostPassword(UUID(uuidString: "00000000-0000-4000-8000-000000000001")!)
        let b = SecretReference.identityPrivateKey(UUID(uuidString: "00000000-0000-4000-8000-000000000000")!)
        XCTAssertLessThan(a, b, "'host.' sorts before 'identity.'")
    }
}
