import Keyring
import SecretTrack
import Sodium

extension Vault {
    /// The keyring items that unlock vaults: one per vault store and device.
    static let unlockKeyring = Keyring(schema: "org.credvault.UnlockKey", attributes: ["store_id", "device_id"])

    private var keyringValues: [String: String] { ["store_id": secrets.storeID, "device_id": deviceID] }

    /// Whether this vault can unlock through the desktop keyring on this device.
    public var unlocksWithKeyring: Bool { (try? secrets.providers().contains(.keyring)) ?? false }

    /// Adds the desktop keyring as a way to unlock this vault on this device, beside its other
    /// methods: a random secret is stored in the keyring's default collection and a key slot
    /// wraps the vault's keys under it. The item comes first, so a crash leaves at most an
    /// unused item (replaced next time). Needs the vault unlocked and the keyring available.
    public func enableKeyringUnlock(kdf: KDFParameters = .recommended()) throws(VaultError) {
        let secret: SecretBytes
        do { secret = try SecretBytes.random(count: 32) } catch { throw VaultError(.storage, "Unable to make a random key.") }
        do {
            try Self.unlockKeyring.store(secret, label: "CredentialVault unlock key (vault \(vaultID), this device)", values: keyringValues)
        } catch {
            throw VaultError(.locked, "The desktop keyring cannot be used: \(error.message)", hint: "Unlock the vault with its passphrase or key file instead.")
        }
        try VaultError.wrapping { try secrets.addKeySlot(.keyring(secret), kdf: kdf) }
    }

    /// Unlocks with the secret kept in the desktop keyring. Throws `locked` with the keyring's
    /// reason (no bus, no provider, locked collection, no item, timed out) so the caller can
    /// fall back to another method; the vault stays locked then.
    public func unlockWithKeyring() throws(VaultError) {
        guard unlocksWithKeyring else { throw VaultError(.locked, "This vault does not unlock with the desktop keyring on this device.") }
        let secret: SecretBytes?
        do {
            secret = try Self.unlockKeyring.lookup(keyringValues)
        } catch {
            throw VaultError(.locked, "The desktop keyring cannot be used: \(error.message)")
        }
        guard let secret else { throw VaultError(.locked, "The desktop keyring holds no key for this vault (it was removed or the keyring was reset).") }
        try VaultError.wrapping { try unlock(with: .keyring(secret)) }
    }
}
