/// Settling a revocation (docs/devices.md, "Revocation and rotation"). The revoked device's
/// objects past its cutoff (what the revoking member had read of it) are refused everywhere; but
/// a device that synced between such a write and the revocation took it in — a race. Devices
/// open those objects (the signature still checked, nothing applied) to learn what they touched:
/// one that took them in removes the versions they brought, and every device sends the records
/// they name again as it holds them, so the first gets back what it had before and all end the
/// same. Record by record, not the whole zone: collected history that only a snapshot of the
/// revoked device covered cannot be read again.
extension ZoneEngine {
    static let undoWaitKey = "undo-waits:"
    /// Runs an undo waits for an object it took in that cannot be read now.
    static let patienceRuns: UInt64 = 10

    /// Returns false while an undo waits for objects: then nothing else may be read (a version
    /// sent again by others, merged now, would lose to the one to undo and be gone after it).
    func settleRevocations(_ listing: ZoneListing, into report: inout ZoneSyncReport) throws -> Bool {
        let cutoffs = seal.cutoffs(zone: store.zone).sorted { $0.key < $1.key }
        // Every undo first: sending a record again while it still holds a version to undo would
        // spread that version as this device's own write.
        var undoWaits = false
        for (device, cutoff) in cutoffs {
            let applied = try store.bookkeepingValue(SyncTables.appliedPrefix + device).flatMap(Self.decodeNumber) ?? 0
            guard applied > cutoff else { continue }
            // Once what this device took in is known whole — or, when an object of it stays
            // missing (a remote that withholds it must not stop this zone for good), with what
            // could be read, after `patienceRuns` runs.
            var versions: [String: Set<RecordVersion>] = [:]
            let listed = (listing.batches[device] ?? [:]).keys.filter { $0 > cutoff && $0 <= applied }.sorted()
            var missing = UInt64(listed.count) < applied - cutoff
            for sequence in listed {
                guard let envelopes = try inspect(device, sequence, listing.batches[device] ?? [:]) else {
                    missing = true
                    continue
                }
                for envelope in envelopes { versions[envelope.recordName, default: []].insert(envelope.version) }
            }
            let key = Self.undoWaitKey + device
            let waited = try store.bookkeepingValue(key).flatMap(Self.decodeNumber) ?? 0
            if missing && waited + 1 < Self.patienceRuns {
                try store.setBookkeepingValue(key, Self.encodeNumber(waited + 1))
                undoWaits = true
                report.waiting += 1
                continue
            }
            try store.undoRevoked(device, versions: versions)
            report.undidRevoked.append(device)
        }
        guard !undoWaits else { return false }
        // Then every record the objects past the cutoff name is sent again as held here, as
        // those objects arrive (in order: one still missing waits).
        for (device, cutoff) in cutoffs {
            let batches = listing.batches[device] ?? [:]
            let inspected = max(cutoff, try store.bookkeepingValue(SyncTables.inspectedPrefix + device).flatMap(Self.decodeNumber) ?? 0)
            var next = inspected + 1
            var records: Set<String> = []
            while next < Batch.maximumSequence, let envelopes = try inspect(device, next, batches) {
                records.formUnion(envelopes.map(\.recordName))
                next += 1
            }
            if next - 1 > inspected { try store.republishRevoked(device, records: records.sorted(), inspectedThrough: next - 1) }
        }
        return true
    }

    /// After an undo (`SyncTables.undid`): every object this device has read — each writer's
    /// batches through its cursor (a revoked writer's through its cutoff), its own through the
    /// last it published — merged again without moving a cursor, and first the best snapshot
    /// that may be a base, for history collected since (its cursors only ever raise ours). One that cannot be read now is passed over:
    /// waiting would not bring a collected one back. Done once: the mark is cleared after.
    func rereadHistory(_ listing: inout ZoneListing, state: ZoneSyncState, queue: inout ApplyQueue, into report: inout ZoneSyncReport) throws {
        for manifest in try manifests(&listing).filter({ listing.isComplete($0) && withinCutoffs($0) }) {
            if try apply(manifest, into: &report) { break }
        }
        let cutoffs = seal.cutoffs(zone: store.zone)
        for (device, objects) in listing.batches.sorted(by: { $0.key < $1.key }) {
            let read = device == store.deviceID ? state.nextSequence - 1 : state.cursors[device] ?? 0
            let through = min(read, cutoffs[device] ?? read)
            for (sequence, name) in objects.sorted(by: { $0.key < $1.key }) where sequence <= through {
                guard let incoming = try fetchObject(name, device: device, sequence: sequence, into: &report) else { continue }
                try queue.add(IncomingBatch(device: device, sequence: sequence, envelopes: incoming.envelopes, rejected: incoming.rejected,
                                            advancesCursor: false), into: &report)
            }
        }
        try queue.flush(into: &report)
        try store.setBookkeepingValue(SyncTables.rereadHistoryKey, Self.encodeNumber(0))
    }

    /// The envelopes (removals left out) of `device`'s batch `sequence`, opened past its cutoff;
    /// nil when it is not listed or does not open (yet).
    private func inspect(_ device: String, _ sequence: UInt64, _ batches: [UInt64: String]) throws -> [Envelope]? {
        guard let name = batches[sequence], let bytes = try readObject(name),
              let opened = try? BatchCodec.open(bytes, zone: store.zone, device: device, sequence: sequence, with: seal.inspectingRevoked())
        else { return nil }
        return opened.envelopes.filter { !$0.isRemoval }
    }
}
