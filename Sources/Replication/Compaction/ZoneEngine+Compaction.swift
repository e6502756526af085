/// After a successful run: publish this device's cursors, write a snapshot when enough history
/// has piled up, and collect what every live device is done with.
///
/// Collection is safe by construction: a batch goes only when the best complete snapshot on the
/// remote covers it **and** every live device's published cursors have passed it; each device's
/// newest batch always stays (it tells a device restored from an old backup where its own
/// sequence stands). A device that was treated as retired, or missed anything for any reason,
/// finds its next batch gone and starts again from that snapshot.
extension ZoneEngine {
    static let publishedKey = "published-cursors"
    static let collectedKey = "collected-at"
    static let snapshotNumberKey = "snapshot-number"
    static let refusedKey = "snapshot-refused-at"

    func compact(_ listing: ZoneListing, into report: inout ZoneSyncReport) throws {
        let now = HybridLogicalClock.wallMilliseconds()
        let state = try store.syncState()
        // What this device's state covers (a snapshot of it covers as much)…
        var covered = state.cursors.filter { $0.value > 0 }
        covered[store.deviceID] = state.nextSequence > 1 ? state.nextSequence - 1 : nil
        // …and what it tells the others: its own position stops just before a batch it still
        // has to read back, so no one collects that batch.
        var mine = covered
        let own = min(state.nextSequence - 1, (try store.firstSequenceStillNeeded()).map { $0 > 0 ? $0 - 1 : 0 } ?? .max)
        mine[store.deviceID] = own > 0 ? own : nil
        try publish(mine, listing, now: now)
        var listing = listing
        let wrote = try writeSnapshotIfDue(&listing, mine: covered, now: now, into: &report)
        let lastCollected = try store.bookkeepingValue(Self.collectedKey).flatMap(Self.decodeNumber) ?? 0
        guard wrote != nil || policy.immediate || now &- lastCollected >= policy.publishInterval * 1_000 else { return }
        // Nothing to collect unless some device has more than its newest batch listed.
        guard listing.batches.values.contains(where: { $0.count > 1 }) || !listing.manifests.isEmpty else { return }
        try collect(listing, mine: mine, now: now, manifests: manifests(&listing), written: wrote, into: &report)
        try store.setBookkeepingValue(Self.collectedKey, Self.encodeNumber(now))
    }

    // MARK: - Published cursors

    /// Publishes `mine` when it changed (at most every `publishInterval`), when nothing was
    /// published for `heartbeatInterval`, or always when compaction is immediate; then removes
    /// this device's older cursor objects.
    private func publish(_ mine: [String: UInt64], _ listing: ZoneListing, now: UInt64) throws {
        let last = try store.bookkeepingValue(Self.publishedKey).flatMap { Self.decodePublished($0, zone: store.zone, device: store.deviceID) }
        if let last, !policy.immediate {
            let age = now &- last.writtenAt
            guard age >= policy.heartbeatInterval * 1_000 || (last.cursors != mine && age >= policy.publishInterval * 1_000) else { return }
        }
        let own = listing.cursors.filter { $0.device == store.deviceID }
        let number = max(last?.number ?? 0, own.map(\.number).max() ?? 0) + 1
        let published = PublishedCursors(zone: store.zone, device: store.deviceID, number: number, writtenAt: now, cursors: mine)
        _ = try remote.createOnly(published.name.objectName(zone: store.zone), bytes: try CompactionCodec.seal(published, with: seal))
        try store.setBookkeepingValue(Self.publishedKey, Self.encodePublished(published))
        // Best effort: a leftover older cursors object is harmless (collection removes it
        // later), and must not keep this run from writing a snapshot.
        for old in own where old.number < number { try? remote.delete(old.objectName(zone: store.zone)) }
    }

    static func encodePublished(_ published: PublishedCursors) -> [UInt8] {
        var writer = ByteWriter()
        writer.u64(published.number)
        writer.u64(published.writtenAt)
        for (device, sequence) in published.cursors.sorted(by: { $0.key < $1.key }) {
            writer.string(device)
            writer.u64(sequence)
        }
        return writer.bytes
    }

    static func decodePublished(_ bytes: [UInt8], zone: String, device: String) -> PublishedCursors? {
        var reader = ByteReader(bytes)
        guard let number = try? reader.u64(), let writtenAt = try? reader.u64() else { return nil }
        var cursors: [String: UInt64] = [:]
        while !reader.isAtEnd {
            guard let device = try? reader.string(), let sequence = try? reader.u64() else { return nil }
            cursors[device] = sequence
        }
        return PublishedCursors(zone: zone, device: device, number: number, writtenAt: writtenAt, cursors: cursors)
    }

    static func encodeNumber(_ value: UInt64) -> [UInt8] {
        var writer = ByteWriter()
        writer.u64(value)
        return writer.bytes
    }

    static func decodeNumber(_ bytes: [UInt8]) -> UInt64? {
        var reader = ByteReader(bytes)
        return try? reader.u64()
    }
}
