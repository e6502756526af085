/// The few SSH wire encodings (RFC 4251 §5) the agent protocol uses: `uint32` big-endian and
/// `string` (a `uint32` length, then the bytes).
public enum SSHWire {
    public static func uint32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    public static func string(_ bytes: [UInt8]) -> [UInt8] { uint32(UInt32(bytes.count)) + bytes }

    /// Reads `uint32`s and `string`s from bytes; nil once anything is short.
    public struct Reader {
        private let bytes: ArraySlice<UInt8>
        private var offset: Int

        public init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            offset = bytes.startIndex
        }

        public var isAtEnd: Bool { offset == bytes.endIndex }

        public mutating func uint32() -> UInt32? {
            guard bytes.endIndex - offset >= 4 else { return nil }
            defer { offset += 4 }
            return bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
        }

        public mutating func byte() -> UInt8? {
            guard offset < bytes.endIndex else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        public mutating func string() -> [UInt8]? {
            guard let count = uint32().map(Int.init), count <= bytes.endIndex - offset else { return nil }
            defer { offset += count }
            return Array(bytes[offset..<(offset + count)])
        }
    }
}
