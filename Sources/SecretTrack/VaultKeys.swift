import Sodium

/// The unwrapped keys of an unlocked store. Lives only in guarded memory.
struct VaultKeys: Sendable {
    /// Seals device-only bodies.
    let deviceKey: SecretBytes
    /// Seals syncable bodies, end to end.
    let vaultKey: SecretBytes

    static func generate() throws -> VaultKeys {
        VaultKeys(deviceKey: try .random(count: SealedBox.keyCount), vaultKey: try .random(count: SealedBox.keyCount))
    }

    func key(for availability: Availability) -> SecretBytes {
        availability == .deviceOnly ? deviceKey : vaultKey
    }
}
