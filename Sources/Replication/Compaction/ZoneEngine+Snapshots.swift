import Sodium

/// Starting from a snapshot instead of history: a joining device, one far behind, or one whose
/// next batches were collected reads the newest snapshot that helps, then only later batches.
extension ZoneEngine {
    /// Applies the snapshots that spare reading many batches or cover batches that are gone,
    /// best first; returns whether any was applied. A snapshot that cannot be read whole (a
    /// part missing, altered or still arriving) is passed over.
    func startFromSnapshots(_ listing: inout ZoneListing, state: ZoneSyncState, into report: inout ZoneSyncReport) throws -> Bool {
        guard !listing.manifests.isEmpty else { return false }
        // This device's own batches count too: restored from an older backup, it lacks them.
        var cursors = state.cursors
        cursors[store.deviceID] = max(cursors[store.deviceID] ?? 0, state.nextSequence - 1)
        // A batch quarantined whole counts as unread here, though the cursor is past it: once
        // it is collected, a snapshot that covers it is the only way to what it held.
        var held = try store.quarantinedObjects().compactMap { entry in
            BatchObjectName(entry.name, zone: store.zone).flatMap { $0.isConflictCopy ? nil : ($0, entry.id) }
        }
        for (batch, _) in held where (cursors[batch.device] ?? 0) >= batch.sequence { cursors[batch.device] = batch.sequence - 1 }
        guard worthReading(listing, cursors: cursors) else { return false }
        var applied = false
        for manifest in try manifests(&listing).filter({ listing.isComplete($0) && withinCutoffs($0) }) {
            guard helps(manifest, listing, cursors: cursors) else { continue }
            guard try apply(manifest, into: &report) else { continue }
            applied = true
            cursors.merge(manifest.cursors, uniquingKeysWith: max)
            // What those batches held came with the snapshot (its writer had read them).
            for (batch, id) in held where (manifest.cursors[batch.device] ?? 0) >= batch.sequence {
                report.add(try store.apply([IncomingBatch(device: batch.device, sequence: batch.sequence, envelopes: [], rejected: [],
                                                          advancesCursor: false, releasesQuarantine: id)]))
            }
            held.removeAll { (manifest.cursors[$0.0.device] ?? 0) >= $0.0.sequence }
        }
        return applied
    }

    /// The manifests listed that open, best first; fetched once per run and kept in `listing`.
    func manifests(_ listing: inout ZoneListing) throws -> [SnapshotManifest] {
        if let opened = listing.opened { return opened }
        let opened = try listing.manifests.compactMap { name in
            guard let bytes = try readObject(name.objectName(zone: store.zone)) else { return nil }
            return try? CompactionCodec.openManifest(bytes, zone: store.zone, device: name.device, number: name.number, with: seal)
        }.sorted(by: Self.better)
        listing.opened = opened
        return opened
    }

    /// Whether a snapshot may be a base: its cursor for no revoked writer passes that writer's
    /// cutoff (it would bring what the revoked device wrote after it, which no one else applies).
    func withinCutoffs(_ manifest: SnapshotManifest) -> Bool {
        seal.cutoffs(zone: store.zone).allSatisfy { (manifest.cursors[$0.key] ?? 0) <= $0.value }
    }

    /// The snapshot to prefer: the one covering more history, then the later one.
    static func better(_ a: SnapshotManifest, _ b: SnapshotManifest) -> Bool {
        (a.coverage, a.createdAt, a.device) > (b.coverage, b.createdAt, b.device)
    }

    /// Whether the listing alone suggests a snapshot could help: a writer's unread batches
    /// have a gap before the last one (collected while an older one stayed), or many batches
    /// are unread.
    private func worthReading(_ listing: ZoneListing, cursors: [String: UInt64]) -> Bool {
        var unread = 0
        for (device, batches) in listing.batches {
            let cursor = cursors[device] ?? 0
            let after = batches.keys.filter { $0 > cursor }
            // Not only the next one: reading up to a gap further on would stop there, and this
            // run would end without what the batches in the gap held.
            if let last = after.max(), UInt64(after.count) < last - cursor { return true }
            unread += after.count
        }
        return unread >= policy.snapshotSparesAtLeast
    }

    private func helps(_ manifest: SnapshotManifest, _ listing: ZoneListing, cursors: [String: UInt64]) -> Bool {
        var spared = 0
        for (device, covered) in manifest.cursors {
            let cursor = cursors[device] ?? 0
            guard covered > cursor else { continue }
            let batches = listing.batches[device] ?? [:]
            let listed = batches.keys.filter { $0 > cursor && $0 <= covered }.count
            // A batch it covers is gone (collected), the next one or one further on: only a
            // snapshot can bring what it held.
            if UInt64(listed) < covered - cursor { return true }
            spared += listed
        }
        return spared >= policy.snapshotSparesAtLeast
    }

    /// Reads and applies every part, in order, each in its own transaction; the last one also
    /// moves the cursors to the snapshot's vector. Parts already applied when a later one turns
    /// out unreadable stay applied — merging is idempotent — and the cursors stay where they were.
    func apply(_ manifest: SnapshotManifest, into report: inout ZoneSyncReport) throws -> Bool {
        for (index, part) in manifest.parts.enumerated() {
            let name = CompactionObjectName(device: manifest.device, number: manifest.number, kind: .snapshotPart(index)).objectName(zone: store.zone)
            guard let bytes = try readObject(name), GenericHash.hash(bytes) == part.digest,
                  let opened = try? CompactionCodec.openPart(bytes, zone: store.zone, device: manifest.device, number: manifest.number,
                                                             part: index, with: seal),
                  opened.envelopes.count + opened.rejected.count == part.count
            else {
                report.waiting += 1
                return false
            }
            let last = index == manifest.parts.count - 1
            report.add(try store.apply([IncomingBatch(device: manifest.device, sequence: 0, envelopes: opened.envelopes, rejected: opened.rejected,
                                                      advancesCursor: false, covers: last ? manifest.cursors : [:], brings: manifest.cursors)]))
            report.fetchedObjects += 1
            report.receivedChanges += opened.envelopes.count
            progress?(report)
        }
        if manifest.parts.isEmpty {
            report.add(try store.apply([IncomingBatch(device: manifest.device, sequence: 0, envelopes: [], rejected: [], advancesCursor: false, covers: manifest.cursors)]))
        }
        report.snapshotsRead += 1
        return true
    }
}
