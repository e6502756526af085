/// Decodes a `Decodable` from a parsed `JSONValue`, as Foundation's `JSONDecoder` does: keys as
/// the type names them, unknown keys ignored, an absent or null key nil for an optional, a super
/// decoder reading `super` (or its key). Stricter in one way: nothing converts silently —
/// integers only from integer literals in range, no number from a string or string from a
/// number, no number out of its type's range.
struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = value else { throw mismatch("an object") }
        return KeyedDecodingContainer(KeyedValues<Key>(fields: fields, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch("an array") }
        return UnkeyedValues(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValue(value: value, codingPath: codingPath) }

    private func mismatch(_ expected: String) -> DecodingError {
        DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "Expected \(expected)."))
    }

    /// The scalar conversions every container shares.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T {
        func mismatch() -> DecodingError { .typeMismatch(T.self, .init(codingPath: path, debugDescription: "Expected \(T.self).")) }
        if value == .null, !(T.self is any ExpressibleByNilLiteral.Type) {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: path, debugDescription: "Expected \(T.self), found null."))
        }
        switch T.self {
        case is String.Type:
            guard case .string(let text) = value else { throw mismatch() }
            return text as! T
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch() }
            return flag as! T
        case is Double.Type, is Float.Type:
            guard case .number(let literal) = value, let number = Double(literal), number.isFinite else { throw mismatch() }
            guard T.self == Float.self else { return number as! T }
            guard Float(number).isFinite else { throw mismatch() }
            return Float(number) as! T
        default:
            if let integer = T.self as? any FixedWidthInteger.Type {
                guard case .number(let literal) = value, let number = integer.init(literal, radix: 10),
                      literal.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                    throw mismatch()
                }
                return number as! T
            }
            return try T(from: ValueDecoder(value: value, codingPath: path))
        }
    }
}

private struct KeyedValues<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }

    private func field(_ key: Key) throws -> JSONValue {
        guard let value = fields[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value for the key."))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try field(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ValueDecoder.decode(type, from: try field(key), at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: try field(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: try field(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: fields["super"] ?? .null, codingPath: codingPath + [SuperKey()]) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ValueDecoder(value: fields[key.stringValue] ?? .null, codingPath: codingPath + [key]) }
}

private struct UnkeyedValues: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The current value, read by `body`; the index moves past it only when `body` succeeds,
    /// so a caller may try another type on the same value.
    private mutating func next<T>(_ body: (JSONValue, [any CodingKey]) throws -> T) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(JSONValue.self, .init(codingPath: codingPath, debugDescription: "The array has no more values."))
        }
        let result = try body(items[currentIndex], codingPath + [IndexKey(currentIndex)])
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(JSONValue.self, .init(codingPath: codingPath, debugDescription: "The array has no more values."))
        }
        guard items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next { value, path in try ValueDecoder.decode(type, from: value, at: path) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next { value, path in try ValueDecoder(value: value, codingPath: path).container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next { value, path in try ValueDecoder(value: value, codingPath: path).unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next { value, path in ValueDecoder(value: value, codingPath: path) }
    }
}

private struct SingleValue: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try ValueDecoder.decode(type, from: value, at: codingPath) }
}

/// An array position in a coding path.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
