/// Builds inputs in `FuzzInput`'s layout: the seed generator writes realistic ones with it.
public struct FuzzInputWriter {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func byte(_ value: UInt8) { bytes.append(value) }

    public mutating func integer(_ value: UInt64, width: Int) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    public mutating func u16(_ value: UInt16) { integer(UInt64(value), width: 2) }
    public mutating func u64(_ value: UInt64) { integer(value, width: 8) }

    /// Fields longer than 65,535 bytes are cut; seeds are small.
    public mutating func field(_ value: [UInt8]) {
        let kept = value.prefix(Int(UInt16.max))
        u16(UInt16(kept.count))
        bytes += kept
    }

    public mutating func text(_ value: String) { field(Array(value.utf8)) }

    public mutating func append(_ value: [UInt8]) { bytes += value }
}
