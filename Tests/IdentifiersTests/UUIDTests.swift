import Foundation
import XCTest
import struct Identifiers.UUID
import typealias Identifiers.uuid_t

/// The project's UUID replaces Foundation's without changing a byte of what is stored or sent:
/// Foundation's `UUID` is the oracle for text, parsing, encoding and order.
final class UUIDTests: XCTestCase {
    private typealias FoundationUUID = Foundation.UUID

    func testRandomUUIDsAreVersion4WithTheRFCVariantAndDistinct() {
        var seen = Set<UUID>()
        for _ in 0..<2000 {
            let id = UUID()
            XCTAssertEqual(id.uuid.6 >> 4, 4, "version 4")
            XCTAssertEqual(id.uuid.8 >> 6, 0b10, "the RFC 9562 variant")
            seen.insert(id)
        }
        XCTAssertEqual(seen.count, 2000)
    }

    func testTextIsFoundationsUppercaseForm() {
        for _ in 0..<200 {
            let id = UUID()
            let theirs = FoundationUUID(uuid: id.uuid)
            XCTAssertEqual(id.uuidString, theirs.uuidString)
            XCTAssertEqual(id.description, theirs.description)
            XCTAssertEqual(UUID(uuidString: id.uuidString), id)
            XCTAssertEqual(UUID(uuidString: id.uuidString.lowercased()), id, "either case parses")
        }
        XCTAssertEqual(UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xff)).uuidString, "00010203-0405-0607-0809-0A0B0C0D0EFF")
        XCTAssertEqual(UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xff)).lowercaseString, "00010203-0405-0607-0809-0a0b0c0d0eff")
    }

    func testTheLowercaseSpellingAloneCanBeAsked() {
        let id = UUID()
        for (text, lowercaseOnly, expected) in [(id.lowercaseString, true, true), (id.uuidString, false, true), (id.uuidString, true, false),
                                                (id.lowercaseString + " ", false, false), (String(id.lowercaseString.dropLast()), false, false)] {
            let bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeBufferPointer { UUID(utf8: $0, lowercaseOnly: lowercaseOnly) }
            XCTAssertEqual(parsed, expected ? id : nil, "\(text) lowercaseOnly: \(lowercaseOnly)")
        }
    }

    /// Only the 8-4-4-4-12 form, in hex digits of either case: everything Foundation writes.
    /// Foundation's own parser is laxer (it reads "+f2504e0-…" as 0F2504E0-…); what this one
    /// accepts, Foundation reads as the same UUID.
    func testParsingAcceptsOnlyTheCanonicalFormInEitherCase() {
        let valid = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
        for text in [valid, valid.uppercased(), "3F2504e0-4f89-41D3-9a0c-0305E82C3301", "00000000-0000-0000-0000-000000000000"] {
            let ours = UUID(uuidString: text)
            XCTAssertNotNil(ours, text)
            XCTAssertEqual(ours?.uuidString, FoundationUUID(uuidString: text)?.uuidString, text)
        }
        let malformed = ["", "3f2504e0", String(valid.dropLast()), valid + "0", " " + valid, valid + " ", "{\(valid)}",
                         "3f2504e04f8941d39a0c0305e82c3301", "3f2504e0-4f89-41d3-9a0c-0305e82c330g", "3f2504e0_4f89-41d3-9a0c-0305e82c3301",
                         "3f2504e0-4f8941d3-9a0c-0305e82c3301-", "3f2504e-04f89-41d3-9a0c-0305e82c3301", "3f2504e0-4f89-41d3-9a0c-0305e82c330\u{e9}",
                         "\u{ff13}f2504e0-4f89-41d3-9a0c-0305e82c3301", "+f2504e0-4f89-41d3-9a0c-0305e82c3301", "-f2504e0-4f89-41d3-9a0c-0305e82c3301",
                         "3f2504e0-4f89-41d3-9a0c-0305e82c33\0\0", "3f2504e0-+f89-41d3-9a0c-0305e82c3301"]
        for text in malformed { XCTAssertNil(UUID(uuidString: text), text.debugDescription) }
        // Every single-character change of a valid UUID, at every position: accepted only when
        // the result is still the canonical form, and then read as Foundation reads it.
        for position in valid.indices {
            for replacement in ["-", "g", "G", "0", "F", " ", "x", "+"] {
                let text = valid.replacingCharacters(in: position...position, with: replacement)
                let hyphenAt = [8, 13, 18, 23].contains(valid.distance(from: valid.startIndex, to: position))
                let canonical = hyphenAt ? replacement == "-" : "0F".contains(replacement)
                let ours = UUID(uuidString: text)
                XCTAssertEqual(ours != nil, canonical, text)
                if let ours { XCTAssertEqual(ours.uuidString, FoundationUUID(uuidString: text)?.uuidString, text) }
            }
        }
    }

    func testEncodedAndDecodedAsFoundationDoes() throws {
        struct Ours: Codable { let id: UUID; let ids: [UUID] }
        struct Theirs: Codable { let id: FoundationUUID; let ids: [FoundationUUID] }
        let first = UUID(), second = UUID()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let ours = try encoder.encode(Ours(id: first, ids: [second, first]))
        let theirs = try encoder.encode(Theirs(id: FoundationUUID(uuid: first.uuid), ids: [FoundationUUID(uuid: second.uuid), FoundationUUID(uuid: first.uuid)]))
        XCTAssertEqual(ours, theirs, "the same bytes")
        let decoded = try JSONDecoder().decode(Ours.self, from: theirs)
        XCTAssertEqual(decoded.id, first)
        XCTAssertEqual(decoded.ids, [second, first])
        XCTAssertEqual(try JSONDecoder().decode([UUID].self, from: Data("[\"\(first.uuidString.lowercased())\"]".utf8)), [first])
        for bad in ["[\"not-a-uuid\"]", "[42]", "[null]", "[\"\(first.uuidString) \"]"] {
            XCTAssertThrowsError(try JSONDecoder().decode([UUID].self, from: Data(bad.utf8)), bad)
        }
    }

    func testOrderAndEqualityAreFoundations() {
        var ids = (0..<300).map { _ in UUID() }
        // Ids that differ only late, and only early, so every byte position decides some pair.
        ids.append(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)))
        ids.append(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2)))
        ids.append(UUID(uuid: (0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        let ours = ids.sorted().map(\.uuidString)
        let theirs = ids.map { FoundationUUID(uuid: $0.uuid) }.sorted().map(\.uuidString)
        XCTAssertEqual(ours, theirs)
        let copy = UUID(uuid: ids[0].uuid)
        XCTAssertEqual(copy, ids[0])
        XCTAssertEqual(copy.hashValue, ids[0].hashValue)
        XCTAssertNotEqual(ids[0], ids[1])
        XCTAssertEqual(Set(ids + ids).count, ids.count)
    }
}
