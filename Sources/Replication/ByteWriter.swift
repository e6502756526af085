/// Builds the canonical binary form of batches: big-endian integers, length-prefixed bytes.
public struct ByteWriter {
    public init() {}

    public private(set) var bytes: [UInt8] = []

    public mutating func u8(_ value: UInt8) { bytes.append(value) }
    public mutating func u16(_ value: UInt16) { append(UInt64(value), width: 2) }
    public mutating func u32(_ value: UInt32) { append(UInt64(value), width: 4) }
    public mutating func u64(_ value: UInt64) { append(value, width: 8) }
    public mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }

    public mutating func data(_ value: [UInt8]) {
        u32(UInt32(value.count))
        bytes += value
    }

    public mutating func string(_ value: String) { data(Array(value.utf8)) }

    /// Bytes of a fixed, known length (a hash, a key, a signature): no length prefix.
    public mutating func fixed(_ value: [UInt8]) { bytes += value }

    private mutating func append(_ value: UInt64, width: Int) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
