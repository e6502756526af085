/// The kinds of key provider, as stored in `key_slots.provider`.
public enum KeyProviderKind: String, Sendable, CaseIterable {
    case passphrase
    case keyFile = "keyfile"
    /// A random secret kept in the desktop keyring (Secret Service).
    case keyring

    /// How messages name it.
    var noun: String {
        switch self {
        case .passphrase: "passphrase"
        case .keyFile: "key file"
        case .keyring: "desktop keyring's key"
        }
    }
}
