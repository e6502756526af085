import Replication
import SecretTrack

extension Vault {
    /// Secret bodies on this device that no host or identity names — left by a crash between
    /// the two tracks' writes, or arrived before their record. Never handed out as credentials;
    /// collected `SecretStore.orphanGraceDays` after they were first seen so. Needs no key.
    public func orphanedSecrets() throws(VaultError) -> [String] {
        try VaultError.wrapping {
            // Bodies first, then records: a host added in between is only seen as in use.
            let stored = try secrets.references()
            return stored.subtracting(try config.referencedSecretKeys()).sorted()
        }
    }

    /// Notes which bodies are orphans now and collects those past the grace period (on this
    /// device only). Returns the references collected.
    @discardableResult
    public func collectOrphans(now: Int64 = Int64(HybridLogicalClock.wallMilliseconds() / 1_000)) throws(VaultError) -> [String] {
        let orphans = try orphanedSecrets()
        return try VaultError.wrapping { try secrets.collectOrphans(Set(orphans), now: now) }
    }
}
