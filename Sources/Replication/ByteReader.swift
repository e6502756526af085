/// Reads what `ByteWriter` wrote, checking every length against the bytes that remain.
public struct ByteReader {
    public struct Truncated: Error {}

    private let bytes: [UInt8]
    public private(set) var offset: Int

    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    public var isAtEnd: Bool { offset == bytes.count }

    public mutating func u8() throws -> UInt8 { UInt8(try integer(width: 1)) }
    public mutating func u16() throws -> UInt16 { UInt16(try integer(width: 2)) }
    public mutating func u32() throws -> UInt32 { UInt32(try integer(width: 4)) }
    public mutating func u64() throws -> UInt64 { try integer(width: 8) }
    public mutating func i64() throws -> Int64 { Int64(bitPattern: try u64()) }

    public mutating func data(maximum: Int = 16 << 20) throws -> [UInt8] {
        let count = Int(try u32())
        guard count <= maximum else { throw Truncated() }
        return try fixed(count)
    }

    /// `count` bytes of a fixed, known length (a hash, a key, a signature).
    public mutating func fixed(_ count: Int) throws -> [UInt8] {
        guard count >= 0, count <= bytes.count - offset else { throw Truncated() }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// A UTF-8 string; invalid UTF-8 is an error, not a repair.
    public mutating func string(maximum: Int = 4_096) throws -> String {
        let count = Int(try u32())
        guard count <= maximum, count <= bytes.count - offset else { throw Truncated() }
        let start = offset
        // Decoding repairs invalid UTF-8; the bytes come back unchanged exactly when they were
        // valid. (Straight from the buffer: no copy, no generic validation per call — joins
        // decode hundreds of thousands of these.)
        let text = bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<(start + count)]), as: UTF8.self) }
        guard text.utf8.elementsEqual(bytes[start..<(start + count)]) else { throw Truncated() }
        offset += count
        return text
    }

    private mutating func integer(width: Int) throws -> UInt64 {
        guard bytes.count - offset >= width else { throw Truncated() }
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        offset += width
        return value
    }
}
