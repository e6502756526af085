import Sodium

/// The unwrapped keys of an unlocked store. Lives only in guarded memory.
struct VaultKeys: Sendable {
    /// Seals device-only bodies, and this device's own locked keys.
    let deviceKey: SecretBytes
    /// Epoch 1's vault key: seals syncable bodies, end to end (the key slots wrap it).
    let vaultKey: SecretBytes
    /// The vault keys of later epochs this device holds (docs/devices.md, "Epochs on data").
    var epochKeys: [UInt32: SecretBytes] = [:]

    static func generate() throws -> VaultKeys {
        VaultKeys(deviceKey: try .random(count: SealedBox.keyCount), vaultKey: try .random(count: SealedBox.keyCount))
    }

    /// The newest epoch whose vault key this device holds: new syncable bodies are sealed in it.
    var newestEpoch: UInt32 { epochKeys.keys.max() ?? 1 }

    func vaultKey(epoch: UInt32) -> SecretBytes? { epoch == 1 ? vaultKey : epochKeys[epoch] }
}
