import Foundation
import JSON
import XCTest

/// The Codable corners a hand-written `encode(to:)` or `init(from:)` reaches, held to what
/// Foundation's coders do — and the bounds that keep a written document readable and a hostile
/// one cheap to refuse.
final class JSONCodingSemanticsTests: XCTestCase {
    class Base: Codable {
        var a = 1
        init() {}
        required init(from decoder: any Decoder) throws { a = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .a) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(a, forKey: .a)
        }
        enum Keys: String, CodingKey { case a }
    }

    final class Derived: Base {
        var b = 2
        override init() { super.init() }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            b = try container.decode(Int.self, forKey: .b)
            try super.init(from: try container.superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(b, forKey: .b)
            try super.encode(to: container.superEncoder())
        }
        enum Keys: String, CodingKey { case b }
    }

    func testASuperclassIsWrittenAndReadUnderSuperAsFoundationDoes() throws {
        let derived = Derived()
        derived.a = 9
        let ours = try JSONCodec.encode(derived, pretty: false)
        XCTAssertEqual(String(decoding: ours, as: UTF8.self), "{\"b\":2,\"super\":{\"a\":9}}")
        let theirs = try JSONEncoder().encode(derived)
        XCTAssertEqual(try JSONCodec.decode(Derived.self, from: Array(theirs)).a, 9)
        XCTAssertEqual(try JSONDecoder().decode(Derived.self, from: Data(ours)).a, 9)
    }

    struct TwiceNested: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var first = container.nestedContainer(keyedBy: Key.self, forKey: .meta)
            try first.encode(1, forKey: .x)
            var second = container.nestedContainer(keyedBy: Key.self, forKey: .meta)
            try second.encode(2, forKey: .y)
        }
        enum Key: String, CodingKey { case meta, x, y }
    }

    func testANestedContainerAskedForTwiceIsTheSameContainer() throws {
        XCTAssertEqual(String(decoding: try JSONCodec.encode(TwiceNested(), pretty: false), as: UTF8.self), "{\"meta\":{\"x\":1,\"y\":2}}")
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(TwiceNested()), as: UTF8.self).count, "{\"meta\":{\"x\":1,\"y\":2}}".count)
    }

    struct Clash: Encodable {
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(1)
            var keyed = encoder.container(keyedBy: TwiceNested.Key.self)
            try keyed.encode(2, forKey: .x)
        }
    }

    func testAPlaceWrittenAsTwoKindsOfValueIsAnErrorNotALoss() {
        XCTAssertThrowsError(try JSONCodec.encode(Clash(), pretty: false))
    }

    indirect enum Nest: Encodable {
        case leaf
        case node(Nest)
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            if case .node(let inner) = self { try container.encode(inner) }
        }
        static func depth(_ count: Int) -> Nest { (0..<count).reduce(.leaf) { inner, _ in .node(inner) } }
    }

    func testNothingIsWrittenThatCannotBeReadBack() throws {
        let deepest = try JSONCodec.encode(Nest.depth(JSONParser.maximumDepth - 1), pretty: false)
        XCTAssertNoThrow(try JSONParser.parse(deepest))
        XCTAssertThrowsError(try JSONCodec.encode(Nest.depth(JSONParser.maximumDepth), pretty: false))
        XCTAssertThrowsError(try JSONCodec.encode([[Double.nan]], pretty: false))
    }

    func testUnkeyedReadingMovesOnOnlyPastAValueItRead() throws {
        struct Mixed: Decodable {
            var values: [Int] = []
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                while !container.isAtEnd {
                    if let number = try? container.decode(Int.self) { values.append(number) } else { _ = try container.decode(String.self); values.append(-1) }
                }
                XCTAssertThrowsError(try container.decodeNil(), "no value past the end")
            }
        }
        XCTAssertEqual(try JSONCodec.decode(Mixed.self, from: Array("[1,\"x\",2]".utf8)).values, [1, -1, 2])
        XCTAssertEqual(try JSONDecoder().decode(Mixed.self, from: Data("[1,\"x\",2]".utf8)).values, [1, -1, 2])
        XCTAssertEqual(try JSONCodec.decode([Int?].self, from: Array("[1,null,3]".utf8)), [1, nil, 3])
        XCTAssertThrowsError(try JSONCodec.decode([Int].self, from: Array("[1,null]".utf8)), "null is no Int")
    }

    func testNumbersOutOfTheirTypesRangeAreRefused() throws {
        XCTAssertThrowsError(try JSONCodec.decode([Float].self, from: Array("[1e39]".utf8)))
        XCTAssertEqual(try JSONCodec.decode([Float].self, from: Array("[1.5]".utf8)), [1.5])
    }

    func testLongKeysAndLargeDocumentsAreRefusedBeforeTheyCostMuch() throws {
        let longest = String(repeating: "k", count: JSONParser.maximumKeyBytes)
        XCTAssertNoThrow(try JSONParser.parse(Array("{\"\(longest)\":1}".utf8)))
        XCTAssertThrowsError(try JSONParser.parse(Array("{\"\(longest)k\":1}".utf8)))
        // Combining marks make hashing a key quadratic in its length: a long one is never hashed.
        let marks = "a" + String(repeating: "\u{301}\u{316}", count: 40_000)
        XCTAssertThrowsError(try JSONParser.parse(Array("{\"\(marks)\":1}".utf8)))
        let large = Array(("[" + String(repeating: "0,", count: JSONParser.maximumBytes / 2) + "0]").utf8)
        XCTAssertThrowsError(try JSONParser.parse(large))
    }
}
