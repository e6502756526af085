import Foundation
import JSON
import XCTest

/// The documents credctl keeps in files and on remotes, written and read without Foundation:
/// what Foundation wrote reads back the same, what is written here Foundation reads the same.
final class JSONCodecTests: XCTestCase {
    /// Every shape the documents use: renamed keys, optionals, integers of each width, a nested
    /// document, a dictionary of documents, an array.
    struct Document: Codable, Equatable {
        var format: Int
        var vaultID: String
        var opsLimit: UInt64
        var measuredAt: Int64
        var small: Int8
        var flag: Bool
        var note: String?
        var keys: [String: String]?
        var zones: [String: Zone]
        var list: [Int]

        struct Zone: Codable, Equatable {
            var state: String
            var waiting: Int?
        }

        enum CodingKeys: String, CodingKey {
            case format, flag, note, keys, zones, list, small
            case vaultID = "vault_id"
            case opsLimit = "ops_limit"
            case measuredAt = "measured_at"
        }
    }

    private let sample = Document(format: 2, vaultID: "vault-3f0c \"quoted\" \\ / é 🔑\u{1}\u{7f}\u{2028}", opsLimit: UInt64.max,
                                  measuredAt: -1_700_000_000, small: -128, flag: true, note: nil, keys: ["1": "a/b+c=", "10": ""],
                                  zones: ["config": .init(state: "ok", waiting: nil), "secrets": .init(state: "waiting", waiting: 3)], list: [0, -1, 42])

    func testWrittenHereReadsTheSameWithFoundation() throws {
        for pretty in [true, false] {
            let bytes = try JSONCodec.encode(sample, pretty: pretty)
            XCTAssertEqual(try JSONDecoder().decode(Document.self, from: Data(bytes)), sample)
            XCTAssertEqual(try JSONCodec.decode(Document.self, from: bytes), sample)
            XCTAssertFalse(String(decoding: bytes, as: UTF8.self).contains("note"), "a nil optional is left out")
        }
    }

    func testWrittenByFoundationReadsTheSameHere() throws {
        for formatting: JSONEncoder.OutputFormatting in [[], [.sortedKeys, .prettyPrinted], [.withoutEscapingSlashes]] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = formatting
            XCTAssertEqual(try JSONCodec.decode(Document.self, from: Array(try encoder.encode(sample))), sample)
        }
        // A document Foundation wrote before, byte for byte: escaped slashes, " : ".
        let written = "{\n  \"format\" : 1,\n  \"salt\" : \"ab\\/cd+ef==\",\n  \"vault_id\" : \"v\"\n}\n"
        struct Old: Codable, Equatable { let format: Int; let salt: String; let vault_id: String }
        XCTAssertEqual(try JSONCodec.decode(Old.self, from: Array(written.utf8)), Old(format: 1, salt: "ab/cd+ef==", vault_id: "v"))
    }

    func testWritingIsDeterministicWithSortedKeysAndFoundationsLayout() throws {
        struct Pair: Codable { let b: Int; let a: [String: Int]; let c: [Int] }
        let pretty = try JSONCodec.encode(Pair(b: 1, a: ["z": 1, "y": 2], c: []), pretty: true)
        XCTAssertEqual(String(decoding: pretty, as: UTF8.self), "{\n  \"a\" : {\n    \"y\" : 2,\n    \"z\" : 1\n  },\n  \"b\" : 1,\n  \"c\" : []\n}")
        XCTAssertEqual(String(decoding: try JSONCodec.encode(Pair(b: 1, a: [:], c: [3]), pretty: false), as: UTF8.self), "{\"a\":{},\"b\":1,\"c\":[3]}")
        XCTAssertEqual(try JSONCodec.encode(sample, pretty: true), try JSONCodec.encode(sample, pretty: true))
    }

    func testStringsAreEscapedSoNoLineBreaksWhereAReaderDoesNotExpect() throws {
        let text = String(decoding: try JSONCodec.encode(["k": "a\nb\u{0}\u{1b}\u{7f}\u{2028}\u{2029}\"\\"], pretty: false), as: UTF8.self)
        XCTAssertEqual(text, "{\"k\":\"a\\nb\\u0000\\u001b\\u007f\\u2028\\u2029\\\"\\\\\"}")
    }

    func testEscapesAreReadIncludingSurrogatePairs() throws {
        let text = "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\udd11\\u0041\"]"
        XCTAssertEqual(try JSONCodec.decode([String].self, from: Array(text.utf8)), ["\"\\/\u{8}\u{c}\n\r\té🔑A"])
    }

    func testMalformedDocumentsAreRefused() {
        let refused = ["", " ", "{", "}", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{\"a\":1}x", "{\"a\":1}{}", "[1] [2]",
                       "{\"a\":1,\"a\":2}", "\"\u{1}\"", "\"a\nb\"", "\"\\x\"", "\"\\u12\"", "\"\\u12g4\"", "\"\\ud800\"", "\"\\udc00\"",
                       "\"\\ud800\\u0041\"", "\"unterminated", "01", "-", "1.", ".5", "+1", "1e", "1e+", "--1", "0x10", "NaN", "Infinity",
                       "tru", "nul", "True", "[1 2]", "\u{feff}[]", "[\"\\u0000\"", "{\"a\":[}"]
        for text in refused {
            XCTAssertThrowsError(try JSONParser.parse(Array(text.utf8)), text.debugDescription)
        }
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0xff, 0x22]), "invalid UTF-8")
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0xed, 0xa0, 0x80, 0x22]), "an encoded surrogate is not UTF-8")
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0xc0, 0xaf, 0x22]), "an overlong encoding")
    }

    func testNestingIsBoundedSoNoDocumentExhaustsTheStack() throws {
        let deep = Array(repeating: UInt8(ascii: "["), count: JSONParser.maximumDepth) + Array(repeating: UInt8(ascii: "]"), count: JSONParser.maximumDepth)
        XCTAssertNoThrow(try JSONParser.parse(deep))
        let deeper = [UInt8(ascii: "[")] + deep + [UInt8(ascii: "]")]
        XCTAssertThrowsError(try JSONParser.parse(deeper))
        let hostile = Array(repeating: UInt8(ascii: "["), count: 1_000_000)
        XCTAssertThrowsError(try JSONParser.parse(hostile))
    }

    func testNumbersConvertOnlyExactlyAndNothingConvertsSilently() throws {
        struct Wide: Codable { let value: UInt64 }
        struct Narrow: Codable { let value: Int8 }
        struct Signed: Codable { let value: Int }
        struct Text: Codable { let value: String }
        struct Real: Codable { let value: Double }
        XCTAssertEqual(try JSONCodec.decode(Wide.self, from: Array("{\"value\":18446744073709551615}".utf8)).value, UInt64.max)
        XCTAssertEqual(try JSONCodec.decode(Real.self, from: Array("{\"value\":-1.5e3}".utf8)).value, -1500)
        for (type, text): (any Decodable.Type, String) in [
            (Wide.self, "{\"value\":18446744073709551616}"), (Wide.self, "{\"value\":-1}"), (Narrow.self, "{\"value\":128}"),
            (Signed.self, "{\"value\":1.0}"), (Signed.self, "{\"value\":1e2}"), (Signed.self, "{\"value\":\"1\"}"), (Signed.self, "{\"value\":true}"),
            (Signed.self, "{\"value\":null}"), (Signed.self, "{}"), (Text.self, "{\"value\":1}"), (Text.self, "{\"value\":null}"), (Signed.self, "[1]"),
            (Real.self, "{\"value\":1e400}"),
        ] {
            XCTAssertThrowsError(try JSONCodec.decode(type, from: Array(text.utf8)), text)
        }
    }

    func testAbsentAndNullOptionalsAreNilAndUnknownKeysAreIgnored() throws {
        struct Optionals: Codable, Equatable { let a: Int?; let b: String? }
        XCTAssertEqual(try JSONCodec.decode(Optionals.self, from: Array("{\"b\":null,\"extra\":[1,{\"x\":2}]}".utf8)), Optionals(a: nil, b: nil))
    }

    /// Random documents: written, read back, and read by Foundation, always the same value.
    func testRandomDocumentsSurviveARoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        func text() -> String {
            String(String.UnicodeScalarView((0..<Int.random(in: 0...8, using: &generator)).map { _ in
                [Unicode.Scalar(UInt8.random(in: 0...0x7f, using: &generator)), "é", "🔑", "\u{2028}", "\u{0}"].randomElement(using: &generator)!
            }))
        }
        for _ in 0..<300 {
            var zones: [String: Document.Zone] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) { zones[text()] = .init(state: text(), waiting: Bool.random() ? nil : Int.random(in: Int.min...Int.max)) }
            let document = Document(format: Int.random(in: Int.min...Int.max), vaultID: text(), opsLimit: UInt64.random(in: 0...UInt64.max),
                                    measuredAt: Int64.random(in: Int64.min...Int64.max), small: Int8.random(in: Int8.min...Int8.max), flag: Bool.random(),
                                    note: Bool.random() ? nil : text(), keys: Bool.random() ? nil : [text(): text()], zones: zones,
                                    list: (0..<Int.random(in: 0...5)).map { _ in Int.random(in: -1000...1000) })
            let bytes = try JSONCodec.encode(document, pretty: Bool.random())
            XCTAssertEqual(try JSONCodec.decode(Document.self, from: bytes), document)
            XCTAssertEqual(try JSONDecoder().decode(Document.self, from: Data(bytes)), document)
        }
    }
}
