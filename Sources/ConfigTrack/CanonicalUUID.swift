import FoundationEssentials

/// The one spelling of a UUID this project stores and accepts: 36 characters, lowercase hex.
public enum CanonicalUUID {
    public static func text(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// Parses only the canonical lowercase form.
    public static func parse(_ text: String) -> UUID? {
        guard text.utf8.count == 36, let id = UUID(uuidString: text), self.text(id) == text else { return nil }
        return id
    }

    /// Whether `text` parses as a UUID in any letter case.
    static func looksLikeUUID(_ text: String) -> Bool { UUID(uuidString: text) != nil }

    /// A short rendering of untrusted text for error messages: every character a label may not
    /// contain (control, format, separators, private use, unassigned) becomes '?', so a message
    /// can neither reorder nor split the terminal line it is printed on.
    static func printable(_ text: String) -> String {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: "?"
            default: scalar
            }
        }))
        return cleaned.count > 80 ? String(cleaned.prefix(80)) + "…" : cleaned
    }
}
