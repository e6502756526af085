/// Builds SSH wire-format data (RFC 4251 §5): `uint32`, `string`, `mpint`.
///
/// For public data only — key blobs and signatures — since it collects into a plain array.
package struct SSHWireWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// A big-endian `uint32`.
    package mutating func uint32(_ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// A length-prefixed `string`.
    package mutating func string(_ value: some Collection<UInt8>) {
        uint32(UInt32(value.count))
        bytes += value
    }

    package mutating func string(_ text: String) { string(Array(text.utf8)) }

    /// An `mpint` holding the unsigned big-endian `magnitude`: without leading zero bytes, and
    /// with one zero byte in front when the top bit is set, so it does not read as negative.
    package mutating func mpint(_ magnitude: some Collection<UInt8>) {
        let trimmed = magnitude.drop { $0 == 0 }
        if let first = trimmed.first, first & 0x80 != 0 {
            string([0] + trimmed)
        } else {
            string(trimmed)
        }
    }
}
