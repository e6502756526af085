import Identifiers
import SSHConfig

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
        for scalar in label.unicodeScalars where !Self.isPrintableASCII(scalar.value) && isInvisible(scalar) {
            throw ConfigError(.invalid, "The \(kind) label '\(CanonicalUUID.printable(label))' contains a control or invisible character (U+\(String(scalar.value, radix: 16, uppercase: true))).")
        }
        guard label.first?.isWhitespace == false, label.last?.isWhitespace == false else {
            throw ConfigError(.invalid, "The \(kind) label '\(label)' must not start or end with white space.")
        }
        guard !CanonicalUUID.looksLikeUUID(label) else {
            throw ConfigError(.invalid, "A \(kind) label must not look like a UUID ('\(label)'); UUIDs refer to records by id.")
        }
    }

    /// A host name or address as ssh takes it (`OpenSSHValue.hostnameProblem`: ASCII letters,
    /// digits, `.-_`, `:` and a `%` zone in IPv6 addresses, not starting with `-`). Brackets
    /// around an IPv6 address are removed. Returns the normalized form.
    public static func hostname(_ hostname: String, field: String = "hostname") throws -> String {
        var name = hostname
        if name.hasPrefix("["), name.hasSuffix("]"), name.count > 2 { name = String(name.dropFirst().dropLast()) }
        try storedHostname(name, field: field)
        return name
    }

    /// A host name as it is stored (already normalized): what a record from elsewhere must hold.
    public static func storedHostname(_ name: String, field: String = "hostname") throws {
        guard !name.isEmpty, name.utf8.count <= OpenSSHValue.maximumHostnameBytes else {
            throw ConfigError(.invalid, "The \(field) must be 1 to \(OpenSSHValue.maximumHostnameBytes) characters.")
        }
        if let problem = OpenSSHValue.hostnameProblem(name) {
            throw ConfigError(.invalid, "The \(field) '\(CanonicalUUID.printable(name))' \(problem).")
        }
    }

    /// A TCP port, 1…65535.
    public static func port(_ port: Int, field: String = "port") throws {
        guard (1...65_535).contains(port) else { throw ConfigError(.invalid, "The \(field) must be between 1 and 65535, not \(port).") }
    }

    /// A remote user name as ssh takes it (`OpenSSHValue.usernameProblem`): letters and digits
    /// of any script, `.-_@+`, not starting with `-` — nothing a shell or ssh's `%` tokens read.
    public static func username(_ username: String, field: String = "user name") throws {
        guard !username.isEmpty, username.utf8.count <= OpenSSHValue.maximumUsernameBytes else {
            throw ConfigError(.invalid, "A \(field) must be 1 to \(OpenSSHValue.maximumUsernameBytes) bytes.")
        }
        if let problem = OpenSSHValue.usernameProblem(username) {
            throw ConfigError(.invalid, "The \(field) '\(CanonicalUUID.printable(username))' \(problem).")
        }
    }

    /// U+0021…U+007E and the space: no control, format or white-space character but the space.
    private static func isPrintableASCII(_ value: UInt32) -> Bool { value >= 0x20 && value < 0x7F }

    /// A device name fit for display: labels' rules, or "device" when the machine's name breaks them.
    static func displayName(_ name: String) -> String {
        (try? label(name, kind: "device")) != nil ? name : "device"
    }
}
