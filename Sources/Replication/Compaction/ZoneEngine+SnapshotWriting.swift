import Sodium

extension ZoneEngine {
    /// Writes a snapshot when the listed batches beyond the best snapshot that this device's
    /// state would add reach `snapshotAfterBatches` (any at all when compaction is immediate),
    /// and nothing waits to be sent. Parts go first, the manifest last: a snapshot is complete
    /// only once its manifest is there. Returns the snapshot written.
    func writeSnapshotIfDue(_ listing: inout ZoneListing, mine: [String: UInt64], now: UInt64, into report: inout ZoneSyncReport) throws -> SnapshotManifest? {
        let cutoffs = seal.cutoffs(zone: store.zone)
        // A state holding what a revoked writer wrote past its cutoff, not undone yet
        // (`settleRevocations` waits for its objects), is no snapshot for anyone.
        for (device, cutoff) in cutoffs where try (store.bookkeepingValue(SyncTables.appliedPrefix + device).flatMap(Self.decodeNumber) ?? 0) > cutoff {
            return nil
        }
        // After a revocation, the snapshot that covered collected batches may be unusable —
        // written by the revoked device (never opened again: it could claim any record) or past
        // its cutoff: when the listing shows batches collected that no usable snapshot covers, a
        // device with a clean state writes one at once, so one joining finds a base.
        var urgent = false
        if !cutoffs.isEmpty {
            let base = try manifests(&listing).first { listing.isComplete($0) && withinCutoffs($0) }
            urgent = listing.batches.contains { device, batches in (batches.keys.min() ?? 0) > (base?.cursors[device] ?? 0) + 1 }
        }
        // Cheap first look, from the listing alone.
        guard urgent || policy.immediate || listing.batchTotal >= policy.snapshotAfterBatches else { return nil }
        let known = try manifests(&listing)
        let best = known.first { listing.isComplete($0) && withinCutoffs($0) }
        let gain = Self.batchesAdded(by: mine, beyond: best?.cursors ?? [:], in: listing)
        guard gain > 0, urgent || policy.immediate || gain >= policy.snapshotAfterBatches else { return nil }
        // After a refusal midway (a body missing), not again for a day: each try uploads parts.
        if !policy.immediate && !urgent, let refused = try store.bookkeepingValue(Self.refusedKey).flatMap(Self.decodeNumber),
           now &- refused < policy.heartbeatInterval * 1_000 { return nil }
        // Never a number used before, even once all of this device's snapshots are collected.
        let used = try store.bookkeepingValue(Self.snapshotNumberKey).flatMap(Self.decodeNumber) ?? 0
        let number = max(listing.lastSnapshotNumber(of: store.deviceID), used) + 1
        try store.setBookkeepingValue(Self.snapshotNumberKey, Self.encodeNumber(number))
        var parts: [SnapshotManifest.Part] = []
        var chunk: [Envelope] = []
        var bytes = 0
        // Parts go out as the state is read, so no more than one part is ever held.
        func flush() throws {
            let sealed = try CompactionCodec.sealPart(chunk[...], zone: store.zone, device: store.deviceID, number: number, part: parts.count, with: seal)
            let name = CompactionObjectName(device: store.deviceID, number: number, kind: .snapshotPart(parts.count)).objectName(zone: store.zone)
            _ = try remote.createOnly(name, bytes: sealed)
            parts.append(SnapshotManifest.Part(count: chunk.count, digest: GenericHash.hash(sealed)))
            chunk.removeAll(keepingCapacity: true)
            bytes = 0
        }
        let state = try store.snapshotState { envelope in
            let size = envelope.payload.count + envelope.recordName.utf8.count + 64
            if !chunk.isEmpty && (chunk.count >= policy.partEnvelopes || bytes + size > policy.partBytes) { try flush() }
            chunk.append(envelope)
            bytes += size
        }
        // Not a snapshot now (changes waiting, or a body missing — then parts may be out
        // already: removed again, best effort; a leftover is collected as a stray later).
        // A revoked writer's objects past its cutoff were refused (or what they brought undone,
        // or no snapshot is written): the cursor that passed them says no more than the cutoff.
        guard let covered = state.map({ covered in covered.merging(cutoffs.filter { covered[$0.key] != nil }, uniquingKeysWith: min) }) else {
            if !parts.isEmpty {
                for index in parts.indices {
                    try? remote.delete(CompactionObjectName(device: store.deviceID, number: number, kind: .snapshotPart(index)).objectName(zone: store.zone))
                }
                try store.setBookkeepingValue(Self.refusedKey, Self.encodeNumber(now))
            }
            return nil
        }
        if !chunk.isEmpty { try flush() }
        let manifest = SnapshotManifest(zone: store.zone, device: store.deviceID, number: number, createdAt: now, cursors: covered, parts: parts)
        _ = try remote.createOnly(manifest.name.objectName(zone: store.zone), bytes: try CompactionCodec.seal(manifest, with: seal))
        listing.opened = (known + [manifest]).sorted(by: Self.better)
        report.snapshotsWritten += 1
        return manifest
    }

    /// How many listed batches `cursors` covers that `covered` does not.
    static func batchesAdded(by cursors: [String: UInt64], beyond covered: [String: UInt64], in listing: ZoneListing) -> Int {
        listing.batches.reduce(0) { total, entry in
            let low = covered[entry.key] ?? 0, high = cursors[entry.key] ?? 0
            return total + entry.value.keys.filter { $0 > low && $0 <= high }.count
        }
    }
}
