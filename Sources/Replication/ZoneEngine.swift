import Sodium

/// One zone's sync run: fetch everything new, merge or quarantine it, checkpoint each cursor;
/// only when every fetch step succeeded, send pending changes in batches of at most 250 and
/// acknowledge exactly what was sent.
///
/// A failure while fetching throws before anything is sent (the upload fence stays closed) and
/// leaves the journal untouched, so the next run simply tries again.
public struct ZoneEngine: Sendable {
    public let store: any ZoneStore
    public let remote: any Remote
    /// Seals what this device writes and opens what others wrote (and checks who wrote it).
    let seal: any ObjectSeal
    /// Called after each object fetched or sent, for progress displays.
    let progress: (@Sendable (ZoneSyncReport) -> Void)?
    /// When this device writes snapshots, publishes its cursors and collects old objects.
    let policy: CompactionPolicy
    /// Upper bound on batches sent in one run, so a run always ends.
    static let maximumBatchesPerRun = 10_000

    public init(store: any ZoneStore, remote: any Remote, transportKey: SecretBytes, policy: CompactionPolicy = CompactionPolicy(),
                progress: (@Sendable (ZoneSyncReport) -> Void)? = nil) {
        self.init(store: store, remote: remote, seal: TransportKeySeal(key: transportKey), policy: policy, progress: progress)
    }

    public init(store: any ZoneStore, remote: any Remote, seal: any ObjectSeal, policy: CompactionPolicy = CompactionPolicy(),
                progress: (@Sendable (ZoneSyncReport) -> Void)? = nil) {
        self.store = store
        self.remote = remote
        self.seal = seal
        self.policy = policy
        self.progress = progress
    }

    /// Fetch, send, then compact. Compaction failing (the remote went away meanwhile) is said
    /// in the report, not thrown: what was fetched and sent stands, and the next run tries again.
    public func run() throws -> ZoneSyncReport {
        var report = ZoneSyncReport(zone: store.zone)
        var listing = try fetch(into: &report)
        // Someone else writes as this device, or this device's own earlier objects are not all
        // read yet: sending now could take names already used.
        guard report.foreignObjectsUnderOwnName == 0, !report.ownObjectsAhead, !report.undoWaits else { return report }
        // Compaction sees the batches just sent as listed too.
        for sequence in try send(into: &report) {
            listing.batches[store.deviceID, default: [:]][sequence] = Batch.objectName(zone: store.zone, device: store.deviceID, sequence: sequence)
        }
        do {
            try compact(listing, into: &report)
        } catch {
            report.compactionProblem = (error as? ReplicationError)?.message ?? "\(error)"
        }
        return report
    }

    // MARK: - Fetch

    @discardableResult
    func fetch(into report: inout ZoneSyncReport) throws -> ZoneListing {
        var queue = ApplyQueue(store: store)
        let listing: ZoneListing
        do {
            listing = try fetch(into: &report, queue: &queue)
        } catch {
            // What was read and opened before the failure still lands; the rest is fetched again.
            try? queue.flush(into: &report)
            throw error
        }
        try queue.flush(into: &report)
        progress?(report)
        return listing
    }

    private func fetch(into report: inout ZoneSyncReport, queue: inout ApplyQueue) throws -> ZoneListing {
        let zone = store.zone
        // What a newer build wrote and this one once could not read: an upgrade applies it now.
        report.add(try store.replayQuarantined())
        var listing = ZoneListing(try remote.list(prefix: "zones/\(zone)/"), zone: zone)
        // After the listing, which gives an S3 remote the ETags it fingerprints objects by.
        try rereadQuarantinedObjects(into: &report)
        // After a revocation: what the revoked writer wrote past its cutoff is undone here if
        // this device took it in, and republished from here if not (`ZoneEngine+Revocation`).
        guard try settleRevocations(listing, into: &report) else {
            report.undoWaits = true
            return listing
        }
        var state = try store.syncState()
        report.shortfalls = try shortfalls(&listing, state: state)
        if try startFromSnapshots(&listing, state: state, into: &report) { state = try store.syncState() }
        let byDevice = listing.batches
        if try (store.bookkeepingValue(SyncTables.rereadHistoryKey).flatMap(Self.decodeNumber) ?? 0) > 0 {
            try rereadHistory(&listing, state: state, queue: &queue, into: &report)
            state = try store.syncState()
        }
        for device in byDevice.keys.sorted() {
            // This device's own objects are read only past what it remembers publishing (after a
            // restore from backup); everything else past its cursor.
            var cursor = device == store.deviceID ? state.nextSequence - 1 : state.cursors[device] ?? 0
            // A cursor an older build moved out of range (it accepted any number) reads nothing more.
            guard cursor < Batch.maximumSequence else { continue }
            let objects = byDevice[device] ?? [:]
            // Strictly in order: a gap is a batch not delivered yet; later ones wait for it.
            while cursor < Batch.maximumSequence, let name = objects[cursor + 1] {
                if device == store.deviceID {
                    try queue.flush(into: &report)
                    if try acknowledgeOwnPublish(name, sequence: cursor + 1) {
                        cursor += 1
                        continue
                    }
                }
                let forgedBefore = report.forgedObjects
                guard let incoming = try fetchObject(name, device: device, sequence: cursor + 1, into: &report) else { break }
                try queue.add(incoming, into: &report)
                progress?(report)
                cursor += 1
                // Signed by this device's key yet not published by it: another copy of this vault
                // writes as it. Not signed by it: a forgery, quarantined; its name is skipped.
                if device == store.deviceID && report.forgedObjects == forgedBefore { report.foreignObjectsUnderOwnName += 1 }
            }
            // Later objects behind a missing one: the gap is waited for, and said so.
            if objects[cursor + 1] == nil, let last = objects.keys.max(), last > cursor + 1 {
                report.waiting += 1
                // Objects of this device's own past it has not read (restored from an older
                // backup, and the sync tool is still bringing them): nothing is sent until they
                // are read, or a snapshot covers them — a new batch now would take their names.
                if device == store.deviceID { report.ownObjectsAhead = true }
            }
        }
        try queue.flush(into: &report)
        try refuseOutOfRange(listing.outOfRange, into: &report)
        for (parsed, name) in listing.copies {
            // A conflict copy is another writer's version of a name; its envelopes merge like any
            // others. Each copy is read once (by name and content), so it cannot fill quarantine;
            // one that did not open is not downloaded again until the remote says it changed.
            let fingerprint = try unopenedFingerprint(name)
            if let fingerprint, try store.wasIngested(name, digest: fingerprint) { continue }
            guard let bytes = try readObject(name) else { continue }
            let digest = GenericHash.hash(bytes)
            guard try !store.wasIngested(name, digest: digest) else { continue }
            guard let opened = try? BatchCodec.open(bytes, zone: zone, device: parsed.device, sequence: parsed.sequence, with: seal) else {
                if let fingerprint { try store.markIngested(name, digest: fingerprint) }
                continue
            }
            let outcome = try store.apply([IncomingBatch(device: parsed.device, sequence: parsed.sequence, envelopes: opened.envelopes,
                                                         rejected: opened.rejected, advancesCursor: false)])
            try store.markIngested(name, digest: digest)
            report.add(outcome)
        }
        return listing
    }

    /// An object under this device's name past what it remembers publishing, holding exactly
    /// the versions its journal still has pending, is its own publish whose acknowledgement a
    /// crash interrupted: acknowledged now instead of being taken for another writer's.
    private func acknowledgeOwnPublish(_ name: String, sequence: UInt64) throws -> Bool {
        guard let bytes = try readObject(name),
              let opened = try? BatchCodec.open(bytes, zone: store.zone, device: store.deviceID, sequence: sequence, with: seal),
              !opened.envelopes.isEmpty, opened.rejected.isEmpty else { return false }
        // Exactly what this device noted it was publishing: its own, even if the records were
        // edited again since (acknowledging clears only the versions that were sent).
        if let noted = try store.publishing(sequence: sequence), noted == GenericHash.hash(bytes) {
            try store.acknowledge(opened.envelopes, sequence: sequence)
            return true
        }
        let pending = Dictionary(try store.pendingChanges(limit: Int.max).map { ($0.recordName, $0.version) }, uniquingKeysWith: max)
        guard opened.envelopes.allSatisfy({ pending[$0.recordName] == $0.version }) else { return false }
        try store.acknowledge(opened.envelopes, sequence: sequence)
        return true
    }

    /// Reads and opens one object, for the queue. Returns nil when it must be retried later.
    func fetchObject(_ name: String, device: String, sequence: UInt64, into report: inout ZoneSyncReport) throws -> IncomingBatch? {
        guard let bytes = try readObject(name) else { return nil }
        do {
            let opened = try BatchCodec.open(bytes, zone: store.zone, device: device, sequence: sequence, with: seal)
            return IncomingBatch(device: device, sequence: sequence, envelopes: opened.envelopes, rejected: opened.rejected, advancesCursor: true)
        } catch let error as ReplicationError where error.code == .unknownSigner {
            // Its writer's `add` may still be on its way: read again once the roster grows. Its
            // bytes are never stored, so junk under names no member has cannot fill this device;
            // the same bytes still waiting after several runs are quarantined by name, once, so
            // status says what waits and why (the entry goes when the object applies).
            report.waiting += 1
            let digest = GenericHash.hash(bytes)
            // Checked first, so bytes already listed cost a read per sync, never a write.
            if try !store.wasIngested(name, digest: digest), try store.noteUnreadable(name, digest: digest) >= SyncTables.attemptsBeforeQuarantine {
                report.add(try store.apply([IncomingBatch(device: device, sequence: sequence, envelopes: [],
                                                          rejected: [RejectedEnvelope(recordName: name, reason: error.message + "; it waits", bytes: [])],
                                                          advancesCursor: false)]))
                try store.markIngested(name, digest: digest)
            }
            return nil
        } catch let error as ReplicationError where error.code == .authenticationFailed {
            // Incomplete (still being copied) and sealed-with-another-key look alike; only bytes
            // that stay the same across several runs are quarantined.
            guard try store.noteUnreadable(name, digest: GenericHash.hash(bytes)) >= SyncTables.attemptsBeforeQuarantine else {
                report.waiting += 1
                return nil
            }
            return wholeObject(bytes, device: device, sequence: sequence, reason: bytes.isEmpty ? "the object is empty or larger than 64 MiB" : error.message)
        } catch let error as ReplicationError {
            if error.code == .forged { report.forgedObjects += 1 }
            return wholeObject(bytes, device: device, sequence: sequence, reason: error.message)
        }
    }

    /// The object kept whole in quarantine, and the cursor past it: the device's later batches
    /// flow, and every sync reads this one again until its bytes change and it opens.
    private func wholeObject(_ bytes: [UInt8], device: String, sequence: UInt64, reason: String) -> IncomingBatch {
        IncomingBatch(device: device, sequence: sequence, envelopes: [],
                      rejected: [RejectedEnvelope(recordName: nil, reason: reason, bytes: bytes, objectDigest: SyncTables.objectDigest(bytes))],
                      advancesCursor: true)
    }

    // MARK: - Send

    /// Returns the sequences published.
    @discardableResult
    func send(into report: inout ZoneSyncReport) throws -> [UInt64] {
        var published: [UInt64] = []
        for _ in 0..<Self.maximumBatchesPerRun {
            let changes = try store.pendingChanges(limit: Batch.maximumChanges)
            guard !changes.isEmpty else { return published }
            let sequence = try store.syncState().nextSequence
            let batch = Batch(zone: store.zone, device: store.deviceID, sequence: sequence, envelopes: changes)
            // A publish that crashed before its acknowledgement is found (and acknowledged) by
            // the next run's fetch, so a name here is never published twice.
            let bytes = try BatchCodec.seal(batch, with: seal)
            try store.notePublishing(sequence: sequence, digest: GenericHash.hash(bytes))
            _ = try remote.createOnly(batch.objectName, bytes: bytes)
            try store.acknowledge(changes, sequence: sequence)
            report.sentChanges += changes.count { !$0.isRemoval }
            report.sentObjects += 1
            published.append(sequence)
            progress?(report)
        }
        return published
    }
}

extension ZoneSyncReport {
    mutating func add(_ outcome: ApplyReport) {
        applied += outcome.applied
        ignored += outcome.ignored
        quarantined += outcome.quarantined
    }
}
