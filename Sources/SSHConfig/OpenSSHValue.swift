/// What OpenSSH can be handed as a host name or a user name without any of it being read as
/// something else: a shell word (ssh turns `ProxyJump user@host` into a `ProxyCommand` that
/// `sh -c` runs, unquoted, in OpenSSH 9.2), an option (a leading `-`), a `%` token (ssh expands
/// them in `HostName`, `User` and `ProxyCommand`), or a new ssh_config keyword (a line break).
///
/// Stricter than OpenSSH 9.6's own `valid_hostname` / `valid_ruser`, which still let `$` and
/// `%` through: every value credctl stores, and every value it gives ssh or writes to an
/// ssh_config file, passes these rules. One set of rules for every path: `ConfigValidation`
/// applies them to what is saved, imported or received, and the code that builds ssh's command
/// line and the exported file applies them again on its own.
public enum OpenSSHValue {
    public static let maximumHostnameBytes = 253
    public static let maximumUsernameBytes = 256

    /// Why `hostname` cannot be given to ssh, or nil when it can. ASCII letters, digits, `.`,
    /// `-`, `_` and, for IPv6 addresses, `:`, with an optional zone after one `%`
    /// (`fe80::1%eth0`, letters, digits, `.`, `-`, `_`); not starting with `-`.
    public static func hostnameProblem(_ hostname: String) -> String? {
        let bytes = Array(hostname.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumHostnameBytes else { return "must be 1 to \(maximumHostnameBytes) characters" }
        guard bytes[0] != UInt8(ascii: "-") else { return "must not start with '-'" }
        var zone = false
        for byte in bytes {
            if isNameByte(byte) { continue }
            if byte == UInt8(ascii: ":"), !zone { continue }
            if byte == UInt8(ascii: "%"), !zone, bytes.contains(UInt8(ascii: ":")) {
                zone = true
                continue
            }
            return "may contain only letters, digits, '.', '-', '_' and, in an IPv6 address, ':' and one '%' before a zone"
        }
        if zone, bytes.last == UInt8(ascii: "%") { return "has an empty IPv6 zone after '%'" }
        return nil
    }

    /// Why `username` cannot be given to ssh, or nil when it can: letters and digits (any
    /// script), `.`, `-`, `_`, `@` (domain accounts) and `+`; not starting with `-`. No white
    /// space, control character, quote, `$`, `%`, `\`, backquote or other shell character.
    public static func usernameProblem(_ username: String) -> String? {
        guard !username.isEmpty, username.utf8.count <= maximumUsernameBytes else { return "must be 1 to \(maximumUsernameBytes) bytes" }
        guard !username.hasPrefix("-") else { return "must not start with '-'" }
        for scalar in username.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                if isNameByte(byte) || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "+") { continue }
                return "may contain only letters, digits, '.', '-', '_', '@' and '+'"
            }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                continue
            default:
                return "may contain only letters, digits, '.', '-', '_', '@' and '+'"
            }
        }
        return nil
    }

    /// Why a port-forward specification (`[bind:]port[:host:hostport]`, IPv6 in brackets) cannot
    /// be given to ssh: only what the two rules above allow, the brackets, and `*` for every
    /// address (Unix socket paths are not forwarded).
    public static func forwardProblem(_ specification: String) -> String? {
        guard !specification.isEmpty, specification.utf8.count <= 600 else { return "must be 1 to 600 characters" }
        guard specification.first != "-" else { return "must not start with '-'" }
        let allowed = specification.utf8.allSatisfy { byte in
            isNameByte(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
                || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "%")
        }
        return allowed ? nil : "may contain only letters, digits, '.', '-', '_', ':', '%', '*' and brackets"
    }

    /// ASCII letters, digits, `.`, `-` and `_`.
    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
}
