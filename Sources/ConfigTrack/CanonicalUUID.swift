import Identifiers

/// The one spelling of a UUID this project stores and accepts: 36 characters, lowercase hex.
public enum CanonicalUUID {
    public static func text(_ id: UUID) -> String {
        // Written by hand: Foundation's uuidString + lowercased() cost several µs per call,
        // and every record read converts ids.
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: id.uuid) { bytes in
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

    /// Parses only the canonical lowercase form.
    public static func parse(_ text: String) -> UUID? { parse(text, lowercaseOnly: true) }

    /// Whether `text` parses as a UUID in any letter case.
    static func looksLikeUUID(_ text: String) -> Bool { parse(text, lowercaseOnly: false) != nil }

    /// A UUID in any letter case (for lookups by id that a person typed).
    static func parseAnyCase(_ text: String) -> UUID? { parse(text, lowercaseOnly: false) }

    private static func parse(_ text: String, lowercaseOnly: Bool) -> UUID? {
        var text = text
        guard text.utf8.count == 36 else { return nil }
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { parse(bytes: $0, lowercaseOnly: lowercaseOnly) } ?? nil
    }

    /// Parses 36 bytes of UUID text (canonical lowercase only when `lowercaseOnly`).
    static func parse(bytes chars: UnsafeBufferPointer<UInt8>, lowercaseOnly: Bool) -> UUID? {
        guard chars.count == 36 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &uuid) { bytes -> Bool in
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard chars[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = nibble(chars[position], lowercaseOnly), let low = nibble(chars[position + 1], lowercaseOnly) else { return false }
                bytes[index] = high << 4 | low
                position += 2
            }
            return true
        }
        return parsed ? UUID(uuid: uuid) : nil
    }

    private static func nibble(_ char: UInt8, _ lowercaseOnly: Bool) -> UInt8? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): char - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where !lowercaseOnly: char - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A short rendering of untrusted text for error messages: every character a label may not
    /// contain (control, format, separators, private use, unassigned) becomes '?', so a message
    /// can neither reorder nor split the terminal line it is printed on.
    public static func printable(_ text: String) -> String {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: "?"
            default: scalar
            }
        }))
        return cleaned.count > 80 ? String(cleaned.prefix(80)) + "…" : cleaned
    }
}
