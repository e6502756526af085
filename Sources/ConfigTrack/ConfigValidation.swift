/// The rules a config field must pass before it is stored. Every failure is `ConfigError.invalid`
/// with a message that names the field (and echoes user text only in printable, shortened form).
public enum ConfigValidation {
    public static let maximumLabelLength = 128

    /// A label: 1…128 characters, no control, format or line-separator characters, no leading
    /// or trailing white space, and not shaped like a UUID (UUIDs look records up by id).
    public static func label(_ label: String, kind: String) throws {
        guard !label.isEmpty else { throw ConfigError(.invalid, "A \(kind) label must not be empty.") }
        // Characters bound what a person sees; bytes bound what combining marks can pile up.
        guard label.utf8.count <= maximumLabelLength || label.count <= maximumLabelLength, label.utf8.count <= 4 * maximumLabelLength else {
            throw ConfigError(.invalid, "A \(kind) label must be at most \(maximumLabelLength) characters and \(4 * maximumLabelLength) bytes (this one has \(label.count) characters, \(label.utf8.count) bytes).")
        }
        // Printable ASCII (the common case) has no such characters; only other text is examined.
        for scalar in label.unicodeScalars where !Self.isPrintableASCII(scalar.value) {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                throw ConfigError(.invalid, "The \(kind) label '\(CanonicalUUID.printable(label))' contains a control or invisible character (U+\(String(scalar.value, radix: 16, uppercase: true))).")
            default: continue
            }
        }
        guard label.first?.isWhitespace == false, label.last?.isWhitespace == false else {
            throw ConfigError(.invalid, "The \(kind) label '\(label)' must not start or end with white space.")
        }
        guard !CanonicalUUID.looksLikeUUID(label) else {
            throw ConfigError(.invalid, "A \(kind) label must not look like a UUID ('\(label)'); UUIDs refer to records by id.")
        }
    }

    /// A host name or address as ssh would take it: ASCII letters, digits and `.-_:%`, not
    /// starting with `-` (which ssh would read as an option). Brackets around an IPv6 address are
    /// removed. Returns the normalized form.
    public static func hostname(_ hostname: String, field: String = "hostname") throws -> String {
        var name = hostname
        if name.hasPrefix("["), name.hasSuffix("]"), name.count > 2 { name = String(name.dropFirst().dropLast()) }
        guard !name.isEmpty, name.utf8.count <= 253 else { throw ConfigError(.invalid, "The \(field) must be 1 to 253 characters.") }
        guard !name.hasPrefix("-") else { throw ConfigError(.invalid, "The \(field) '\(CanonicalUUID.printable(name))' must not start with '-'.") }
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "%")
        }
        guard allowed else {
            throw ConfigError(.invalid, "The \(field) '\(CanonicalUUID.printable(name))' may contain only letters, digits, '.', '-', '_', ':' and '%'.")
        }
        return name
    }

    /// A TCP port, 1…65535.
    public static func port(_ port: Int, field: String = "port") throws {
        guard (1...65_535).contains(port) else { throw ConfigError(.invalid, "The \(field) must be between 1 and 65535, not \(port).") }
    }

    /// A remote user name: 1…256 characters, no white space or control characters, not
    /// starting with `-`.
    public static func username(_ username: String) throws {
        guard !username.isEmpty, username.utf8.count <= 256 else { throw ConfigError(.invalid, "A user name must be 1 to 256 bytes.") }
        guard !username.hasPrefix("-") else { throw ConfigError(.invalid, "The user name '\(CanonicalUUID.printable(username))' must not start with '-'.") }
        let forbidden = username.unicodeScalars.contains { scalar in
            scalar.value == 0x20 || (!isPrintableASCII(scalar.value) && (scalar.properties.isWhitespace || scalar.properties.generalCategory == .control))
        }
        guard !forbidden else {
            throw ConfigError(.invalid, "The user name '\(CanonicalUUID.printable(username))' must not contain white space or control characters.")
        }
    }

    /// U+0021…U+007E and the space: no control, format or white-space character but the space.
    private static func isPrintableASCII(_ value: UInt32) -> Bool { value >= 0x20 && value < 0x7F }

    /// A device name fit for display: labels' rules, or "device" when the machine's name breaks them.
    static func displayName(_ name: String) -> String {
        (try? label(name, kind: "device")) != nil ? name : "device"
    }
}
