/// Encodes an `Encodable` into a `JSONValue`, as Foundation's `JSONEncoder` does: nil optionals
/// left out, integers as integer literals, a super encoder's value under `super` (or its key),
/// a nested container asked for twice at one key the same container. A non-finite number, a
/// place written as two kinds of value, or nesting deeper than the parser reads is an error.
///
/// Containers write into shared boxes, so a container a type asks for late still lands in the
/// value its encoder returns.
final class ValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let box: Box

    init(codingPath: [any CodingKey], box: Box = Box()) {
        self.codingPath = codingPath
        self.box = box
    }

    /// A value under construction, changed in place: an object, an array or one scalar.
    final class Box {
        enum Kind { case unset, object, array, scalar }
        private(set) var kind = Kind.unset
        var fields: [String: Box] = [:]
        var items: [Box] = []
        var scalar = JSONValue.null
        /// Set when one place was written as two kinds of value.
        private(set) var clash = false

        /// Makes this box `wanted`; a box already of another kind records the clash.
        func become(_ wanted: Kind) {
            if kind == .unset { kind = wanted } else if kind != wanted { clash = true }
        }

        func child(_ key: String, _ wanted: Kind) -> Box {
            let existing = fields[key] ?? Box()
            existing.become(wanted)
            fields[key] = existing
            return existing
        }

        func value(depth: Int) throws(JSONError) -> JSONValue {
            guard !clash else { throw JSONError("A value was written twice at one place, as two kinds of value.") }
            guard depth < JSONParser.maximumDepth else {
                throw JSONError("The value nests deeper than \(JSONParser.maximumDepth).")
            }
            switch kind {
            case .unset: return .object([:])
            case .scalar: return scalar
            case .array:
                var values: [JSONValue] = []
                for item in items { values.append(try item.value(depth: depth + 1)) }
                return .array(values)
            case .object:
                var values: [String: JSONValue] = [:]
                for (key, field) in fields { values[key] = try field.value(depth: depth + 1) }
                return .object(values)
            }
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.become(.object)
        return KeyedEncodingContainer(KeyedBoxes<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        box.become(.array)
        return UnkeyedBoxes(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleBox(box: box, codingPath: codingPath) }

    /// Encodes one value into `box`: a scalar directly, anything else through its own `encode(to:)`.
    static func encode<T: Encodable>(_ value: T, into box: Box, at path: [any CodingKey]) throws {
        func scalar(_ json: JSONValue) {
            box.become(.scalar)
            box.scalar = json
        }
        switch value {
        case let text as String: scalar(.string(text))
        case let flag as Bool: scalar(.bool(flag))
        case let number as Double: scalar(try finite(number, path))
        case let number as Float: scalar(try finite(Double(number), path))
        case let integer as any FixedWidthInteger: scalar(.number(String(describing: integer)))
        default: try value.encode(to: ValueEncoder(codingPath: path, box: box))
        }
    }

    private static func finite(_ number: Double, _ path: [any CodingKey]) throws -> JSONValue {
        guard number.isFinite else { throw EncodingError.invalidValue(number, .init(codingPath: path, debugDescription: "Not a finite number.")) }
        return .number(String(describing: number))
    }
}

/// The key Foundation files a super encoder's value under.
struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

private struct KeyedBoxes<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ValueEncoder.Box
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { box.child(key.stringValue, .scalar).scalar = .null }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = ValueEncoder.Box()
        try ValueEncoder.encode(value, into: child, at: codingPath + [key])
        box.fields[key.stringValue] = child
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedBoxes<NestedKey>(box: box.child(key.stringValue, .object), codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnkeyedBoxes(box: box.child(key.stringValue, .array), codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let child = ValueEncoder.Box()
        box.fields["super"] = child
        return ValueEncoder(codingPath: codingPath + [SuperKey()], box: child)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = ValueEncoder.Box()
        box.fields[key.stringValue] = child
        return ValueEncoder(codingPath: codingPath + [key], box: child)
    }
}

private struct UnkeyedBoxes: UnkeyedEncodingContainer {
    let box: ValueEncoder.Box
    let codingPath: [any CodingKey]

    var count: Int { box.items.count }

    private func next() -> (ValueEncoder.Box, [any CodingKey]) {
        let child = ValueEncoder.Box()
        let path = codingPath + [IndexKey(box.items.count)]
        box.items.append(child)
        return (child, path)
    }

    mutating func encodeNil() throws {
        let (child, _) = next()
        child.become(.scalar)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let (child, path) = next()
        try ValueEncoder.encode(value, into: child, at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let (child, path) = next()
        child.become(.object)
        return KeyedEncodingContainer(KeyedBoxes<NestedKey>(box: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let (child, path) = next()
        child.become(.array)
        return UnkeyedBoxes(box: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let (child, path) = next()
        return ValueEncoder(codingPath: path, box: child)
    }
}

private struct SingleBox: SingleValueEncodingContainer {
    let box: ValueEncoder.Box
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        box.become(.scalar)
        box.scalar = .null
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try ValueEncoder.encode(value, into: box, at: codingPath)
    }
}
