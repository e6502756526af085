import SecretTrack
import Sodium

/// How this device unlocks the vault (docs/devices.md, "Unlock methods"): each method is a key
/// slot wrapping the device key and epoch 1's vault key; everything else this device keeps
/// (its roster and vault box keys, later epochs' vault keys) is sealed under the device key, so
/// adding, removing or changing a method rewraps one slot in one transaction and touches nothing
/// on the remote.
extension Vault {
    /// The ways this vault unlocks on this device: `passphrase`, `keyfile`, `keyring`.
    public var unlockMethods: [String] { ((try? secrets.providers()) ?? []).map(\.rawValue) }

    /// Adds `key` as a way to unlock (or replaces the method of its kind: `passphrase change`).
    /// A key file that does not exist is created (0600, random). Needs the vault unlocked.
    public func addUnlockMethod(_ key: UnlockKey, kdf: KDFParameters = .recommended()) throws(VaultError) {
        try VaultError.wrapping {
            guard secrets.isUnlocked else { throw VaultError(.locked, "Adding a way to unlock needs the vault unlocked.", hint: "Unlock it with its passphrase or key file.") }
            try secrets.addKeySlot(try Self.keyProvider(for: key, creating: true), kdf: kdf)
        }
    }

    /// Removes the method `name` (`passphrase`, `keyfile`, `keyring`); the last one stays.
    /// Needs the vault unlocked.
    public func removeUnlockMethod(_ name: String) throws(VaultError) {
        try VaultError.wrapping {
            guard let kind = KeyProviderKind(rawValue: name) else {
                throw VaultError(.invalidInput, "'\(name)' is not an unlock method; the methods are passphrase, keyfile and keyring.")
            }
            try secrets.removeKeySlot(kind)
            if kind == .keyring { _ = try? Self.unlockKeyring.clear(["store_id": secrets.storeID, "device_id": deviceID]) }
        }
    }
}
