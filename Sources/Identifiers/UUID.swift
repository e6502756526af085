import Sodium

/// The 16 bytes of a UUID, as a tuple so that it is stored inline.
public typealias uuid_t = (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                           UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

/// A universally unique identifier (RFC 9562), the id of every record.
///
/// It behaves as Foundation's `UUID` does, so that nothing stored or sent changes: `uuidString`
/// and `description` are uppercase, `init(uuidString:)` accepts either case, it is encoded as
/// its `uuidString` and compared byte by byte. It is the project's own so that the program need
/// not link Foundation, whose relocations every process pays for at start (docs/startup.md).
public struct UUID: Hashable, Comparable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public let uuid: uuid_t

    /// A random (version 4) UUID, from libsodium's CSPRNG.
    public init() {
        let random = Random.bytes(count: 16)
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            for index in 0..<16 { bytes[index] = random[index] }
            bytes[6] = bytes[6] & 0x0f | 0x40  // version 4
            bytes[8] = bytes[8] & 0x3f | 0x80  // the RFC's variant
        }
        self.uuid = uuid
    }

    public init(uuid: uuid_t) {
        self.uuid = uuid
    }

    /// Parses the 36-character form (8-4-4-4-12 hex digits, either case); nil for anything else.
    public init?(uuidString: String) {
        var text = uuidString
        guard text.utf8.count == 36 else { return nil }
        text.makeContiguousUTF8()
        guard let parsed = text.utf8.withContiguousStorageIfAvailable({ UUID(utf8: $0, lowercaseOnly: false) }), let parsed else { return nil }
        self = parsed
    }

    /// Parses 36 bytes of UUID text; with `lowercaseOnly`, only the lowercase spelling.
    public init?(utf8 text: UnsafeBufferPointer<UInt8>, lowercaseOnly: Bool) {
        guard text.count == 36 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &uuid) { bytes -> Bool in
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard text[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = Self.nibble(text[position], lowercaseOnly), let low = Self.nibble(text[position + 1], lowercaseOnly) else { return false }
                bytes[index] = high << 4 | low
                position += 2
            }
            return true
        }
        guard parsed else { return nil }
        self.uuid = uuid
    }

    /// The 36-character form, uppercase (as Foundation writes it).
    public var uuidString: String { formatted(Array("0123456789ABCDEF".utf8)) }

    /// The 36-character form, lowercase: the spelling the project stores and accepts.
    public var lowercaseString: String { formatted(Array("0123456789abcdef".utf8)) }

    private func formatted(_ hex: [UInt8]) -> String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 { out[position] = UInt8(ascii: "-"); position += 1 }
                    out[position] = hex[Int(byte >> 4)]
                    out[position + 1] = hex[Int(byte & 0x0f)]
                    position += 2
                }
                return position
            }
        }
    }

    public var description: String { uuidString }
    public var debugDescription: String { uuidString }

    public static func == (lhs: UUID, rhs: UUID) -> Bool {
        withUnsafeBytes(of: lhs.uuid) { left in withUnsafeBytes(of: rhs.uuid) { right in left.elementsEqual(right) } }
    }

    public static func < (lhs: UUID, rhs: UUID) -> Bool {
        withUnsafeBytes(of: lhs.uuid) { left in withUnsafeBytes(of: rhs.uuid) { right in left.lexicographicallyPrecedes(right) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: uuid) { hasher.combine(bytes: $0) }
    }

    private static func nibble(_ char: UInt8, _ lowercaseOnly: Bool) -> UInt8? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): char - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where !lowercaseOnly: char - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension UUID: Codable {
    /// As Foundation decodes it: a string in the 36-character form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let uuid = UUID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Attempted to decode UUID from invalid UUID string.")
        }
        self = uuid
    }

    /// As Foundation encodes it: its `uuidString`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uuidString)
    }
}
