import Sodium

/// What unlocks the device and vault keys on this device.
public enum KeyProvider: Sendable {
    /// A passphrase, stretched with Argon2id.
    case passphrase(SecretBytes)
    /// The contents of a key file (see `KeyFile`).
    case keyFile(SecretBytes)
    /// The random secret kept in the desktop keyring for this vault and device.
    case keyring(SecretBytes)

    /// The name stored with the key slot this provider opens.
    public var kind: KeyProviderKind {
        switch self {
        case .passphrase: .passphrase
        case .keyFile: .keyFile
        case .keyring: .keyring
        }
    }
}
