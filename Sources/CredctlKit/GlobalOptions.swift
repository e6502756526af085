/// Options accepted before or after any command.
struct GlobalOptions: Sendable {
    var vault: String?
    var passphraseFile: String?
    var keyFile: String?
    /// `--key-file` given with no path: the default key file (`VaultDirectory.defaultKeyFilePath`).
    var keyFileAtDefault = false
    var json = false
    var help = false
    var version = false

    static let specs: [CommandSpec.Option] = [
        .init(name: "--vault", value: "DIR", help: "The vault directory (else $CREDCTL_VAULT, else $XDG_DATA_HOME/credctl, else ~/.local/share/credctl)."),
        .init(name: "--passphrase-file", value: "FILE", help: "Read the vault passphrase from FILE (else $CREDCTL_PASSPHRASE_FILE)."),
        .init(name: "--key-file", value: "[FILE]", help: "Unlock with the key file FILE (else $CREDCTL_KEY_FILE, else $XDG_CONFIG_HOME/credctl/key when it exists); with no FILE (last, or before another option), that default key file."),
        .init(name: "--json", value: nil, help: "Print one JSON document on standard output."),
        .init(name: "--help", value: nil, help: "Show help for the command."),
    ]

    /// Every global option's name, `--version` included.
    static var names: [String] { specs.map(\.name) + ["--version"] }

    /// Consumes a global option at `tokens[index]`; returns how many tokens it used (0 if the
    /// token is not a global option).
    mutating func consume(_ tokens: [String], at index: Int) throws -> Int {
        let token = tokens[index]
        let (name, inlineValue) = Self.split(token)
        func value() throws -> String {
            guard let value = inlineValue ?? (index + 1 < tokens.count ? tokens[index + 1] : nil) else {
                throw UsageError("Option \(name) needs a value.")
            }
            // An empty path would silently mean the current directory.
            guard !value.isEmpty else { throw UsageError("Option \(name) needs a non-empty value.") }
            return value
        }
        let used = inlineValue == nil ? 2 : 1
        switch name {
        case "--vault": vault = try value(); return used
        case "--passphrase-file": passphraseFile = try value(); return used
        case "--key-file":
            // No path (nothing follows, or another option does) means the default key file.
            if inlineValue == nil, index + 1 == tokens.count || tokens[index + 1].hasPrefix("-") {
                keyFileAtDefault = true
                return 1
            }
            keyFile = try value()
            return used
        case "--json": json = true; return 1
        case "--help", "-h": help = true; return 1
        case "--version": version = true; return 1
        default: return 0
        }
    }

    /// `--name=value` → (`--name`, `value`).
    static func split(_ token: String) -> (String, String?) {
        guard token.hasPrefix("--"), let equals = token.firstIndex(of: "=") else { return (token, nil) }
        return (String(token[..<equals]), String(token[token.index(after: equals)...]))
    }
}
