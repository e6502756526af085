import SecretTrack

/// Bodies written while the vault is locked and an agent holds it unlocked go through the agent,
/// which seals them (docs/agent.md); the record that names one is written here, after it.
extension Vault {
    /// Stores `body` under `reference`: here when unlocked, else through `secretSource`.
    func putSecret(_ body: SecretBytes, for reference: SecretReference, availability: Availability) throws {
        if !secrets.isUnlocked, let source = secretSource { return try source.store(body, for: reference, availability: availability) }
        try secrets.put(body, for: reference.key, availability: availability)
    }

    /// Seals and stores `body` under `reference` for a client of the agent. Needs the vault unlocked.
    public func storeSecret(_ body: SecretBytes, for reference: SecretReference, availability: Availability) throws(VaultError) {
        try VaultError.wrapping {
            guard secrets.isUnlocked else { throw VaultError(.locked, "The vault is locked.") }
            try secrets.put(body, for: reference.key, availability: availability)
        }
    }
}
