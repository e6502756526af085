/// Reads JSON strictly (RFC 8259): one value with only whitespace around it, strings of valid
/// UTF-8 with no unescaped control characters and no lone surrogate, numbers in the RFC's
/// grammar, objects without a repeated key and with keys of at most `maximumKeyBytes`, nesting
/// at most `maximumDepth` deep, and at most `maximumBytes` in all. Anything
/// else is an error: these documents come from files and remotes that may be hostile, and one
/// reading is the only validation there is.
public struct JSONParser {
    public static let maximumDepth = 32
    /// Longer keys are refused: no document here has a key past 32 bytes, and hashing a key of
    /// combining marks costs time quadratic in its length.
    public static let maximumKeyBytes = 256
    /// A document larger than this is refused before it is read; callers bound it lower.
    public static let maximumBytes = 1 << 20

    private let bytes: [UInt8]
    private var position = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        guard bytes.count <= maximumBytes else { throw JSONError("Not valid JSON: larger than \(maximumBytes) bytes.") }
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.error("text after the document") }
        return value
    }

    private mutating func value(depth: Int) throws(JSONError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth)") }
        guard let byte = peek() else { throw error("a value is missing") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character")
        }
    }

    private mutating func object(depth: Int) throws(JSONError) -> JSONValue {
        position += 1
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { position += 1; return .object(fields) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("an object key must be a string") }
            let key = try string()
            guard key.utf8.count <= Self.maximumKeyBytes else { throw error("an object key is longer than \(Self.maximumKeyBytes) bytes") }
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            let member = try value(depth: depth + 1)
            guard fields.updateValue(member, forKey: key) == nil else { throw error("an object key appears twice") }
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { position += 1; continue }
            try expect(UInt8(ascii: "}"))
            return .object(fields)
        }
    }

    private mutating func array(depth: Int) throws(JSONError) -> JSONValue {
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { position += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { position += 1; continue }
            try expect(UInt8(ascii: "]"))
            return .array(items)
        }
    }

    private mutating func string() throws(JSONError) -> String {
        position += 1
        var out: [UInt8] = []
        while true {
            guard let byte = peek() else { throw error("a string is not closed") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw error("a string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"): try escape(into: &out)
            case 0..<0x20: throw error("a control character in a string")
            default: out.append(byte)
            }
        }
    }

    private mutating func escape(into out: inout [UInt8]) throws(JSONError) {
        guard let byte = peek() else { throw error("a string is not closed") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0c)
        case UInt8(ascii: "n"): out.append(0x0a)
        case UInt8(ascii: "r"): out.append(0x0d)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800...0xDBFF).contains(scalar) {
                guard peek() == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw error("a lone surrogate in a string")
                }
                position += 2
                let low = try hexQuad()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate in a string") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("a lone surrogate in a string") }
            UTF8.encode(unicode) { out.append($0) }
        default: throw error("an unknown escape in a string")
        }
    }

    private mutating func hexQuad() throws(JSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("a \\u escape is cut short") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape holds a character that is not hex")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, returned as its text.
    private mutating func number() throws(JSONError) -> String {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        if peek() == UInt8(ascii: "0") {
            position += 1
        } else {
            guard digits() > 0 else { throw error("a number has no digits") }
        }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error("a number's fraction has no digits") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw error("a number's exponent has no digits") }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func digits() -> Int {
        let start = position
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        return position - start
    }

    private mutating func literal(_ word: String) throws(JSONError) {
        let expected = Array(word.utf8)
        guard position + expected.count <= bytes.count, bytes[position..<(position + expected.count)].elementsEqual(expected) else {
            throw error("unexpected character")
        }
        position += expected.count
    }

    private mutating func expect(_ byte: UInt8) throws(JSONError) {
        guard peek() == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
        position += 1
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0a || byte == 0x0d || byte == 0x09 { position += 1 }
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private func error(_ what: String) -> JSONError { JSONError("Not valid JSON at byte \(position): \(what).") }
}
