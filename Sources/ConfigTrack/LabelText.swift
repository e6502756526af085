/// How labels compare: as people read them, not as bytes.
///
/// `café-1` typed on one keyboard (NFC, é as one code point) and another (NFD, e and a combining
/// accent) is one label, and `web-1` and `WEB-1` are one label too — ssh matches Host names
/// without regard to case, and a person reading a list cannot tell them apart. Labels are stored
/// in NFC; each labelled row keeps its *key* (`label_key`: NFC of the lowercased NFC label, the
/// same for every spelling that differs only by case or normalization), which uniqueness and
/// lookups use.
public enum LabelText {
    /// `label` in Unicode Normalization Form C.
    public static func normalized(_ label: String) -> String {
        // The standard library's NFC, the one Swift's own string comparison rests on; Foundation's
        // ICU-backed form would load a large library into every command for this alone.
        String(decoding: label._nfcCodeUnits, as: UTF8.self)
    }

    /// The key two labels share exactly when they differ only by case or normalization.
    public static func key(_ label: String) -> String { normalized(normalized(label).lowercased()) }

    /// Whether two labels are the same label.
    public static func same(_ first: String, _ second: String) -> Bool { key(first) == key(second) }
}
