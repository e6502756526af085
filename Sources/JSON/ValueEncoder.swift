/// Encodes an `Encodable` into a `JSONValue`, as Foundation's `JSONEncoder` does for the types
/// here: nil optionals left out, integers as integer literals, a non-finite number an error.
///
/// Containers write into shared boxes, so a container a type asks for late still lands in the
/// value its encoder returns.
final class ValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private(set) var box: Box?

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    /// A value under construction: an object, an array or one scalar.
    final class Box {
        enum Content { case object([String: Box]), array([Box]), value(JSONValue) }
        var content: Content
        init(_ content: Content) { self.content = content }

        var value: JSONValue {
            switch content {
            case .object(let fields): .object(fields.mapValues(\.value))
            case .array(let items): .array(items.map(\.value))
            case .value(let value): value
            }
        }
    }

    var value: JSONValue { box?.value ?? .object([:]) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if box == nil { box = Box(.object([:])) }
        return KeyedEncodingContainer(KeyedBoxes<Key>(box: box!, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if box == nil { box = Box(.array([])) }
        return UnkeyedBoxes(box: box!, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        if box == nil { box = Box(.value(.null)) }
        return SingleBox(box: box!, codingPath: codingPath)
    }

    /// The value of one scalar, or of a nested `Encodable` encoded by an encoder of its own.
    static func encode<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> Box {
        switch value {
        case let text as String: return Box(.value(.string(text)))
        case let flag as Bool: return Box(.value(.bool(flag)))
        case let number as Double: return Box(.value(try finite(number, path)))
        case let number as Float: return Box(.value(try finite(Double(number), path)))
        case let integer as any FixedWidthInteger: return Box(.value(.number(String(describing: integer))))
        default:
            let encoder = ValueEncoder(codingPath: path)
            try value.encode(to: encoder)
            return encoder.box ?? Box(.value(.object([:])))
        }
    }

    private static func finite(_ number: Double, _ path: [any CodingKey]) throws -> JSONValue {
        guard number.isFinite else { throw EncodingError.invalidValue(number, .init(codingPath: path, debugDescription: "Not a finite number.")) }
        return .number(String(describing: number))
    }
}

private struct KeyedBoxes<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ValueEncoder.Box
    let codingPath: [any CodingKey]

    private func set(_ child: ValueEncoder.Box, _ key: Key) {
        guard case .object(var fields) = box.content else { return }
        fields[key.stringValue] = child
        box.content = .object(fields)
    }

    mutating func encodeNil(forKey key: Key) throws { set(ValueEncoder.Box(.value(.null)), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try ValueEncoder.encode(value, at: codingPath + [key]), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = ValueEncoder.Box(.object([:]))
        set(child, key)
        return KeyedEncodingContainer(KeyedBoxes<NestedKey>(box: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = ValueEncoder.Box(.array([]))
        set(child, key)
        return UnkeyedBoxes(box: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ValueEncoder(codingPath: codingPath + [key]) }
}

private struct UnkeyedBoxes: UnkeyedEncodingContainer {
    let box: ValueEncoder.Box
    let codingPath: [any CodingKey]

    var count: Int {
        guard case .array(let items) = box.content else { return 0 }
        return items.count
    }

    private func append(_ child: ValueEncoder.Box) {
        guard case .array(var items) = box.content else { return }
        items.append(child)
        box.content = .array(items)
    }

    mutating func encodeNil() throws { append(ValueEncoder.Box(.value(.null))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try ValueEncoder.encode(value, at: codingPath + [IndexKey(count)]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = ValueEncoder.Box(.object([:]))
        let path = codingPath + [IndexKey(count)]
        append(child)
        return KeyedEncodingContainer(KeyedBoxes<NestedKey>(box: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = ValueEncoder.Box(.array([]))
        let path = codingPath + [IndexKey(count)]
        append(child)
        return UnkeyedBoxes(box: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(codingPath: codingPath + [IndexKey(count)]) }
}

private struct SingleBox: SingleValueEncodingContainer {
    let box: ValueEncoder.Box
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { box.content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        box.content = try ValueEncoder.encode(value, at: codingPath).content
    }
}
