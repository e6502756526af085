/// Rebuilding a zone after a revocation race (docs/devices.md, "Revocation and rotation"): a
/// device that took in what a revoked writer wrote past its cutoff — it synced between that write
/// and learning of the revocation — holds a state no other device will. It drops every record it
/// holds no pending change of and reads the zone again as a joining device does, its own batches
/// included; the remote no longer gives what the revoked writer wrote past its cutoff, and no
/// snapshot past a cutoff is a base.
extension ZoneEngine {
    /// The revoked writers whose changes past their cutoff this device took in (with that
    /// cutoff). The cursor does not tell: it also passes objects quarantined whole, as those are.
    func appliedPastCutoff() throws -> [String: UInt64] {
        try seal.cutoffs(zone: store.zone).filter { device, cutoff in
            (try store.bookkeepingValue(SyncTables.appliedPrefix + device).flatMap(Self.decodeNumber) ?? 0) > cutoff
        }
    }

    /// While a rebuild reads this device's own batches back: the last of them; nil otherwise.
    func rebuildingOwnUpTo() throws -> UInt64? {
        try store.bookkeepingValue(SyncTables.rebuildOwnKey).flatMap(Self.decodeNumber)
    }
}
