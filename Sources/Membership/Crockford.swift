/// Crockford's base32, as users type it: digits and letters without I, L, O and U; reading
/// ignores case, dashes and white space, and reads I and L as 1 and O as 0, so codes survive
/// being read aloud or copied by hand. Used by the recovery key and the join codes; both write
/// and read through closures, so a secret's form never has to leave guarded memory.
enum Crockford {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// Emits `symbols` characters of the bits `bit(i)` (0 or 1, most significant first), a `-`
    /// between groups of `group`.
    static func encode(symbols: Int, group: Int, bit: (Int) -> Int, emit: (UInt8) -> Void) {
        for symbol in 0..<symbols {
            if symbol > 0, symbol % group == 0 { emit(UInt8(ascii: "-")) }
            emit(alphabet[(0..<5).reduce(0) { $0 << 1 | bit(symbol * 5 + $1) }])
        }
    }

    /// The characters of the first `symbols` × 5 bits of `bytes`, grouped as `encode` does.
    static func grouped(_ bytes: [UInt8], symbols: Int, group: Int) -> String {
        var text: [UInt8] = []
        encode(symbols: symbols, group: group, bit: { Int(bytes[$0 / 8] >> (7 - $0 % 8) & 1) }) { text.append($0) }
        return String(decoding: text, as: UTF8.self)
    }

    /// Calls `body` with the 5-bit value of each typed symbol, skipping separators; false at the
    /// first byte that is neither (nothing after it is read).
    static func forEachValue(in typed: UnsafeRawBufferPointer, _ body: (UInt8) throws -> Void) rethrows -> Bool {
        for byte in typed where !isSeparator(byte) {
            guard let value = value(of: byte) else { return false }
            try body(value)
        }
        return true
    }

    private static func isSeparator(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "-") || byte == 0x20 || (0x09...0x0d).contains(byte) }

    private static func value(of byte: UInt8) -> UInt8? {
        var upper = byte >= 0x61 && byte <= 0x7a ? byte - 0x20 : byte
        switch upper {
        case UInt8(ascii: "I"), UInt8(ascii: "L"): upper = UInt8(ascii: "1")
        case UInt8(ascii: "O"): upper = UInt8(ascii: "0")
        default: break
        }
        return alphabet.firstIndex(of: upper).map(UInt8.init)
    }
}
