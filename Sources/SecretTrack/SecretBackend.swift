/// Where a store keeps its sealed bodies, chosen when the vault is created.
public enum SecretBackend: String, Sendable, CaseIterable {
    /// In `secrets.sqlite`, beside their metadata.
    case sqlite
    /// As items of the desktop keyring (still sealed). `secrets.sqlite` keeps the metadata,
    /// versions, incarnations and deletion markers, and for each body the digest of the keyring
    /// item it must match. Kept losing versions and pre-migration copies stay in `secrets.sqlite`.
    case keyring
}
