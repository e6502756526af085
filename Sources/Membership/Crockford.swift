/// Crockford's base32, as users type it: digits and letters without I, L, O and U; reading
/// ignores case and reads I and L as 1 and O as 0, so codes survive being read aloud or copied
/// by hand. Used by the recovery key and the join codes.
enum Crockford {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// The 5-bit value of a typed character, or nil for one that is not in the alphabet.
    static func value(of byte: UInt8) -> UInt8? {
        var upper = byte >= 0x61 && byte <= 0x7a ? byte - 0x20 : byte
        switch upper {
        case UInt8(ascii: "I"), UInt8(ascii: "L"): upper = UInt8(ascii: "1")
        case UInt8(ascii: "O"): upper = UInt8(ascii: "0")
        default: break
        }
        return alphabet.firstIndex(of: upper).map(UInt8.init)
    }

    /// Whether a typed byte is only a separator (a dash or white space).
    static func isSeparator(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "-") || byte == 0x20 || (0x09...0x0d).contains(byte) }

    /// The first `symbols` 5-bit symbols of `bytes`, as characters in groups of `group` joined by `-`.
    static func grouped(_ bytes: [UInt8], symbols: Int, group: Int) -> String {
        var text: [UInt8] = []
        for symbol in 0..<symbols {
            if symbol > 0, symbol % group == 0 { text.append(UInt8(ascii: "-")) }
            let value = (0..<5).reduce(0) { value, offset in
                let bit = symbol * 5 + offset
                return value << 1 | Int(bytes[bit / 8] >> (7 - bit % 8) & 1)
            }
            text.append(alphabet[value])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
