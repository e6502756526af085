/// Makes text inert on a terminal. A label, host name, user name, quarantine reason, device
/// name or path can come from config, a file or the remote; printed raw, an ESC or a C1 control
/// in it would be a terminal control sequence (recolour, retitle, move the cursor, hide text,
/// and on some terminals answer back as if typed). Such characters are shown escaped instead.
enum TerminalText {
    /// `text` with every C0 control (line feed and tab kept when `keepingLines`), DEL and every
    /// C1 control written as a visible escape: `\x1b`, `\x7f`, `\u009b`.
    static func inert(_ text: String, keepingLines: Bool = false) -> String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x0A, 0x09: !keepingLines
            case 0x00...0x1F, 0x7F...0x9F: true
            default: false
            }
        }
        // Nearly all output has none: return it as it is.
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            result += scalar.value < 0x80 ? "\\x" + (hex.count == 1 ? "0" : "") + hex : "\\u00" + hex
        }
        return result
    }
}
