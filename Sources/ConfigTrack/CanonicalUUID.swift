import Identifiers

/// The one spelling of a UUID this project stores and accepts: 36 characters, lowercase hex.
public enum CanonicalUUID {
    public static func text(_ id: UUID) -> String { id.lowercaseString }

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
        UUID(utf8: chars, lowercaseOnly: lowercaseOnly)
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
