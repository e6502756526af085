/// Freshness (docs/devices.md, "Freshness"): a remote that shows less of a writer than this
/// device has read — its batches gone below what was read, with no signed snapshot covering them
/// — was rolled back or withholds objects, and is said, never accepted silently.
///
/// Collection never removes a writer's newest batch, so on an honest remote the batch this device
/// last read of each writer, or a later one, is always listed, or a snapshot covers it. Said only
/// after `SyncTables.attemptsBeforeQuarantine` runs in a row found it: a sync tool may deliver a
/// collection's deletions before the newer objects, for a moment.
extension ZoneEngine {
    static let shortfallRunsKey = "shortfall-runs"

    /// The writers (this device included) whose objects the listing shows less of than was read,
    /// with the sequence read; empty until the same shortfall has lasted enough runs.
    func shortfalls(_ listing: inout ZoneListing, state: ZoneSyncState) throws -> [String: UInt64] {
        var read = state.cursors.filter { $0.value > 0 }
        if state.nextSequence > 1 { read[store.deviceID] = max(read[store.deviceID] ?? 0, state.nextSequence - 1) }
        var short = read.filter { device, sequence in (listing.batches[device]?.keys.max() ?? 0) < sequence }
        if !short.isEmpty {
            let manifests = try manifests(&listing)
            short = short.filter { device, sequence in !manifests.contains { ($0.cursors[device] ?? 0) >= sequence } }
        }
        let before = try store.bookkeepingValue(Self.shortfallRunsKey).flatMap(Self.decodeNumber) ?? 0
        let runs = short.isEmpty ? 0 : before + 1
        if runs != before { try store.setBookkeepingValue(Self.shortfallRunsKey, Self.encodeNumber(runs)) }
        return runs >= UInt64(SyncTables.attemptsBeforeQuarantine) ? short : [:]
    }
}
