import Sodium

extension ZoneEngine {
    /// Writes a snapshot when the listed batches beyond the best snapshot that this device's
    /// state would add reach `snapshotAfterBatches` (any at all when compaction is immediate),
    /// and nothing waits to be sent. Parts go first, the manifest last: a snapshot is complete
    /// only once its manifest is there. Returns the snapshot written.
    func writeSnapshotIfDue(_ listing: ZoneListing, mine: [String: UInt64], now: UInt64, manifests: inout [SnapshotManifest]?,
                            into report: inout ZoneSyncReport) throws -> SnapshotManifest? {
        // Cheap first look, from the listing alone.
        guard policy.immediate || listing.batchTotal >= policy.snapshotAfterBatches else { return nil }
        let known = try readManifests(listing)
        manifests = known
        let best = known.first(where: listing.isComplete)
        let gain = Self.batchesAdded(by: mine, beyond: best?.cursors ?? [:], in: listing)
        guard gain > 0, policy.immediate || gain >= policy.snapshotAfterBatches else { return nil }
        guard let state = try store.snapshotState() else { return nil }
        let number = listing.lastSnapshotNumber(of: store.deviceID) + 1
        var parts: [SnapshotManifest.Part] = []
        for chunk in chunks(of: state.envelopes) {
            let bytes = try CompactionCodec.sealPart(chunk, zone: store.zone, device: store.deviceID, number: number, part: parts.count, transportKey: transportKey)
            let name = CompactionObjectName(device: store.deviceID, number: number, kind: .snapshotPart(parts.count)).objectName(zone: store.zone)
            _ = try remote.createOnly(name, bytes: bytes)
            parts.append(SnapshotManifest.Part(count: chunk.count, digest: GenericHash.hash(bytes)))
        }
        let manifest = SnapshotManifest(zone: store.zone, device: store.deviceID, number: number, createdAt: now, cursors: state.cursors, parts: parts)
        _ = try remote.createOnly(manifest.name.objectName(zone: store.zone), bytes: try CompactionCodec.seal(manifest, transportKey: transportKey))
        manifests = (known + [manifest]).sorted(by: Self.better)
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

    /// Envelopes in parts of at most `partEnvelopes` and about `partBytes` each.
    private func chunks(of envelopes: [Envelope]) -> [ArraySlice<Envelope>] {
        var result: [ArraySlice<Envelope>] = []
        var start = 0, bytes = 0
        for (index, envelope) in envelopes.enumerated() {
            if index > start && (index - start >= policy.partEnvelopes || bytes + envelope.payload.count > policy.partBytes) {
                result.append(envelopes[start..<index])
                start = index
                bytes = 0
            }
            bytes += envelope.payload.count + envelope.recordName.utf8.count + 64
        }
        if start < envelopes.count { result.append(envelopes[start...]) }
        return result
    }
}
