/// The bytes libFuzzer hands a harness, consumed from the front: a selector byte, a few numbers,
/// length-prefixed fields, then the rest. Reading past the end yields zeros and empty fields,
/// never a failure, so every input — however short — reaches the code under test.
public struct FuzzInput {
    public private(set) var bytes: ArraySlice<UInt8>

    /// Copies libFuzzer's buffer (`data` may be null when `size` is 0).
    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size))[...] } ?? []
    }

    public init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    public var isEmpty: Bool { bytes.isEmpty }

    public mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    /// A big-endian integer of `width` bytes (fewer if the input runs out).
    public mutating func integer(width: Int) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<width { value = value << 8 | UInt64(byte()) }
        return value
    }

    public mutating func u16() -> UInt16 { UInt16(integer(width: 2)) }
    public mutating func u64() -> UInt64 { integer(width: 8) }

    /// Up to `count` bytes.
    public mutating func take(_ count: Int) -> [UInt8] {
        let taken = bytes.prefix(count)
        bytes = bytes.dropFirst(taken.count)
        return Array(taken)
    }

    /// A field prefixed by its 16-bit length, as `FuzzInputWriter.field` writes it.
    public mutating func field() -> [UInt8] { take(Int(u16())) }

    /// A field read as text; invalid UTF-8 is repaired, as every reader of text files here does.
    public mutating func text() -> String { String(decoding: field(), as: UTF8.self) }

    /// Everything not consumed yet.
    public mutating func rest() -> [UInt8] {
        defer { bytes = [] }
        return Array(bytes)
    }

    /// The rest split at zero bytes, for harnesses that take several strings.
    public mutating func restSplitAtZeros(maximumParts: Int = .max) -> [String] {
        rest().split(separator: 0, maxSplits: maximumParts - 1, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
}
