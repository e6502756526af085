/// The kinds of key provider, as stored in `key_slots.provider`.
public enum KeyProviderKind: String, Sendable, CaseIterable {
    case passphrase
    case keyFile = "keyfile"
}
