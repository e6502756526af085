import Replication
import SecretTrack

extension Vault {
    /// Secret bodies on this device that no host or identity names — left by a crash between
    /// the two tracks' writes, or arrived before their record. Never handed out as credentials;
    /// collected `SecretStore.orphanGraceDays` after they were first seen so. Needs no key.
    public func orphanedSecrets() throws(VaultError) -> [String] {
        try VaultError.wrapping {
            // Bodies first, then records: a host added in between is only seen as in use.
            // Both lists come sorted by their bytes, so one walk finds the difference (a vault
            // of 100k hosts would otherwise hash 200k strings on every daily check).
            let stored = try secrets.references()
            let used = try config.referencedSecretKeys()
            var orphans: [String] = []
            var index = used.startIndex
            for reference in stored {
                while index < used.endIndex, used[index].utf8.lexicographicallyPrecedes(reference.utf8) { index += 1 }
                if index == used.endIndex || !used[index].utf8.elementsEqual(reference.utf8) { orphans.append(reference) }
            }
            return orphans
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
