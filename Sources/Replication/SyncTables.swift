import SQLite

/// The replication bookkeeping every zone store keeps in its own database — cursors, this
/// device's next sequence, unreadable-object attempts and quarantine — as SQL the stores call
/// inside their own transactions.
public enum SyncTables {
    public static let migration = Migration("replication: sequences and unreadable objects") { db in
        try db.execute("""
            CREATE TABLE replication_sequences (zone TEXT PRIMARY KEY, next INTEGER NOT NULL);
            CREATE TABLE replication_unreadable (
                name TEXT PRIMARY KEY, digest BLOB NOT NULL, attempts INTEGER NOT NULL);
            """)
    }

    public static let ingestedCopiesMigration = Migration("replication: ingested conflict copies") { db in
        try db.execute("CREATE TABLE replication_ingested (name TEXT NOT NULL, digest BLOB NOT NULL, PRIMARY KEY (name, digest))")
    }

    public static let replayableQuarantineMigration = Migration("replication: quarantined envelopes a newer build can apply") { db in
        try db.execute("ALTER TABLE replication_quarantine ADD COLUMN envelope BLOB")
    }

    public static let publishIntentMigration = Migration("replication: the object being published") { db in
        try db.execute("CREATE TABLE replication_publishing (zone TEXT NOT NULL, sequence INTEGER NOT NULL, digest BLOB NOT NULL, PRIMARY KEY (zone, sequence))")
    }

    public static let compactionMigration = Migration("replication: compaction bookkeeping") { db in
        try db.execute("CREATE TABLE replication_values (zone TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL, PRIMARY KEY (zone, key))")
    }

    public static func value(_ db: Connection, zone: String, key: String) throws -> [UInt8]? {
        try db.queryFirst("SELECT value FROM replication_values WHERE zone = ? AND key = ?", [zone, key]) { $0.blob(0) } ?? nil
    }

    public static func setValue(_ db: Connection, zone: String, key: String, _ value: [UInt8]) throws {
        try db.run("INSERT OR REPLACE INTO replication_values (zone, key, value) VALUES (?, ?, ?)", [zone, key, value])
    }

    /// The shared part of `ZoneStore.snapshotState`, inside the store's read transaction: nil
    /// while changes are pending; otherwise the cursor vector (this device's own last published
    /// sequence included) and the quarantined envelopes a newer build can apply, to go after
    /// the store's own records.
    public static func snapshotFrame(_ db: Connection, zone: String, ownDevice: String) throws -> (cursors: [String: UInt64], held: [Envelope])? {
        guard try Journal.pendingCount(db) == 0 else { return nil }
        let state = try state(db, zone: zone)
        var cursors = state.cursors.filter { $0.value > 0 }
        if state.nextSequence > 1 { cursors[ownDevice] = max(cursors[ownDevice] ?? 0, state.nextSequence - 1) }
        // A batch quarantined whole (a newer build's format) is in no state this build holds:
        // the snapshot claims its writer only up to before it, so it stays on the remote for
        // whoever can read it, and a device joining from the snapshot reads it as before.
        for name in try db.query("SELECT record_name FROM replication_quarantine WHERE zone = ? AND envelope IS NULL", [zone], { $0.text(0) ?? "" }) {
            guard let batch = BatchObjectName(name, zone: zone), !batch.isConflictCopy, let covered = cursors[batch.device], covered >= batch.sequence else { continue }
            cursors[batch.device] = batch.sequence > 1 ? batch.sequence - 1 : nil
        }
        let held = try db.query("SELECT envelope FROM replication_quarantine WHERE zone = ? AND envelope IS NOT NULL ORDER BY id", [zone]) { $0.blob(0) ?? [] }
            .compactMap { try? BatchCodec.decode($0) }
        return (cursors, held)
    }

    /// Remembers, before the object goes out, what this device is about to publish as `sequence`:
    /// if the acknowledgement is then cut short, the object is still known as its own later,
    /// however the journal has moved on meanwhile.
    public static func notePublishing(_ db: Connection, zone: String, sequence: UInt64, digest: [UInt8]) throws {
        try db.run("INSERT OR REPLACE INTO replication_publishing (zone, sequence, digest) VALUES (?, ?, ?)", [zone, sequence, digest])
    }

    /// The digest of what this device was publishing as `sequence`, if it never acknowledged it.
    public static func publishing(_ db: Connection, zone: String, sequence: UInt64) throws -> [UInt8]? {
        try db.queryFirst("SELECT digest FROM replication_publishing WHERE zone = ? AND sequence = ?", [zone, sequence]) { $0.blob(0) } ?? nil
    }

    public static func wasIngested(_ db: Connection, name: String, digest: [UInt8]) throws -> Bool {
        try db.queryFirst("SELECT 1 FROM replication_ingested WHERE name = ? AND digest = ?", [name, digest]) { _ in true } ?? false
    }

    public static func markIngested(_ db: Connection, name: String, digest: [UInt8]) throws {
        try db.run("INSERT OR IGNORE INTO replication_ingested (name, digest) VALUES (?, ?)", [name, digest])
    }

    /// How many separate sync runs must find an object unreadable, with unchanged bytes, before
    /// it is quarantined. A file still being written by a sync tool changes between runs.
    public static let attemptsBeforeQuarantine = 3

    public static func state(_ db: Connection, zone: String) throws -> ZoneSyncState {
        let cursors = try db.query("SELECT device, sequence FROM replication_cursors WHERE zone = ?", [zone]) { ($0.text(0) ?? "", $0.uint64(1)) }
        let next = try db.queryFirst("SELECT next FROM replication_sequences WHERE zone = ?", [zone]) { $0.uint64(0) } ?? 1
        return ZoneSyncState(cursors: Dictionary(cursors, uniquingKeysWith: max), nextSequence: next)
    }

    /// Moves `device`'s cursor to `sequence` (never backwards). For this device's own objects
    /// (found on the remote after local state was lost), the next sequence moves past them too.
    public static func advance(_ db: Connection, zone: String, device: String, sequence: UInt64, ownDevice: String) throws {
        // The one bound on sequences from the remote (names past it are never listed as batches):
        // a cursor claimed further (a damaged or hostile object) stays put.
        guard sequence <= Batch.maximumSequence else { return }
        try db.run("""
            INSERT INTO replication_cursors (zone, device, sequence) VALUES (?, ?, ?)
            ON CONFLICT (zone, device) DO UPDATE SET sequence = max(sequence, excluded.sequence)
            """, [zone, device, sequence])
        if device == ownDevice { try reserve(db, zone: zone, through: sequence) }
        let name = Batch.objectName(zone: zone, device: device, sequence: sequence)
        try db.run("DELETE FROM replication_unreadable WHERE name = ?", [name])
        // What waited for its writer to join, quarantined by name meanwhile, applied now.
        try db.run("DELETE FROM replication_quarantine WHERE zone = ? AND record_name = ? AND object_digest IS NULL AND envelope IS NULL AND length(bytes) = 0",
                   [zone, name])
    }

    private static let heardPrefix = "heard:"
    static let appliedPrefix = "applied:"

    /// Remembers, for a batch whose envelopes were merged (not one quarantined whole), its
    /// sequence — the highest of its writer's whose changes this device took in (a revocation
    /// race is a revoked writer's past its cutoff) — and the newest version its writer stamped
    /// itself in it: when that device was last heard from, by its own clock (`device list`).
    private static func noteHeard(_ db: Connection, zone: String, from batch: IncomingBatch) throws {
        guard !batch.envelopes.isEmpty else { return }
        try raise(db, zone: zone, key: appliedPrefix + batch.device, to: batch.sequence)
        guard let newest = batch.envelopes.lazy.map(\.version).filter({ $0.device == batch.device }).max() else { return }
        try raise(db, zone: zone, key: heardPrefix + batch.device, to: newest.clock)
    }

    private static func raise(_ db: Connection, zone: String, key: String, to number: UInt64) throws {
        if let known = try value(db, zone: zone, key: key).flatMap(ZoneEngine.decodeNumber), known >= number { return }
        try setValue(db, zone: zone, key: key, ZoneEngine.encodeNumber(number))
    }

    /// Per writer device, the newest version it stamped itself that this device applied from its
    /// batches in `zone` (a hybrid logical clock).
    public static func heard(_ db: Connection, zone: String) throws -> [String: UInt64] {
        let rows = try db.query("SELECT key, value FROM replication_values WHERE zone = ? AND key >= ? AND key < ?",
                                [zone, heardPrefix, "heard;"]) { (($0.text(0) ?? "").dropFirst(heardPrefix.count), $0.blob(1) ?? []) }
        return Dictionary(rows.compactMap { key, value in ZoneEngine.decodeNumber(value).map { (String(key), $0) } }, uniquingKeysWith: max)
    }

    /// Makes the next sequence at least `sequence + 1`.
    public static func reserve(_ db: Connection, zone: String, through sequence: UInt64) throws {
        try db.run("""
            INSERT INTO replication_sequences (zone, next) VALUES (?, ?)
            ON CONFLICT (zone) DO UPDATE SET next = max(next, excluded.next)
            """, [zone, sequence + 1])
    }

    /// Counts one more run that found `name` unreadable; a change of content starts over.
    public static func noteUnreadable(_ db: Connection, name: String, digest: [UInt8]) throws -> Int {
        try db.run("""
            INSERT INTO replication_unreadable (name, digest, attempts) VALUES (?, ?, 1)
            ON CONFLICT (name) DO UPDATE SET attempts = CASE WHEN digest = excluded.digest THEN attempts + 1 ELSE 1 END,
                digest = excluded.digest
            """, [name, digest])
        return try db.queryFirst("SELECT attempts FROM replication_unreadable WHERE name = ?", [name]) { $0.int(0) } ?? 1
    }

    /// Keeps what could not be applied, with its reason and bytes.
    public static func quarantine(_ db: Connection, zone: String, _ rejected: RejectedEnvelope, device: String, sequence: UInt64) throws {
        let name = rejected.recordName ?? Batch.objectName(zone: zone, device: device, sequence: sequence)
        try Journal.quarantine(db, zone: zone, recordName: name, reason: rejected.reason, bytes: rejected.bytes, at: receivedNow(from: device),
                               objectDigest: rejected.objectDigest)
    }

    /// When something from `device` was put in quarantine: now, by this device's wall clock.
    private static func receivedNow(from device: String) -> RecordVersion {
        RecordVersion(clock: HybridLogicalClock.wallMilliseconds() << HybridLogicalClock.counterBits, device: device)
    }

    /// The shared part of `ZoneStore.acknowledge`: the sequence is used up, and each journal
    /// entry is cleared only if it still holds exactly the version that was sent.
    public static func acknowledge(_ db: Connection, zone: String, sent: [Envelope], sequence: UInt64, ownDevice: String) throws {
        try reserve(db, zone: zone, through: sequence)
        try db.run("DELETE FROM replication_publishing WHERE zone = ? AND sequence <= ?", [zone, sequence])
        for envelope in sent where !envelope.isRemoval {
            try Journal.acknowledge(db, recordName: envelope.recordName, version: envelope.version)
            // Another device's version sent from here (a rebind, a revocation's republishing,
            // a record this device edited as it held it): every device has it from this one now,
            // so this device never undoes it (`relayed`). One value per record, the newest.
            if envelope.version.device != ownDevice { try setValue(db, zone: zone, key: relayedPrefix + envelope.recordName, encode(envelope.version)) }
        }
    }

    static let relayedPrefix = "relayed:"

    private static func encode(_ version: RecordVersion) -> [UInt8] { ZoneEngine.encodeNumber(version.clock) + Array(version.device.utf8) }

    /// Whether this device sent `version` of `recordName`, another device's (`acknowledge`).
    public static func relayed(_ db: Connection, zone: String, recordName: String, version: RecordVersion) throws -> Bool {
        try value(db, zone: zone, key: relayedPrefix + recordName) == encode(version)
    }

    /// The shared part of `ZoneStore.apply`, inside the store's write transaction, for each
    /// batch in order: rejected envelopes go to quarantine, `merge` decides each envelope (told
    /// whether that record has a pending local edit), the clock moves past every version merge
    /// accepted (applied or ignored), and the cursor advances. `keepsRejectedBytes` is false for zones whose unreadable bytes
    /// might hold a secret in the clear: then only the reason is kept.
    ///
    /// `deletionsSeen` says whether the store holds any deletion yet; a device that never saw
    /// one (a fresh join) lets `merge` skip looking for them — until an envelope applied in this
    /// very transaction is a deletion, from which on `merge` is told to look.
    ///
    /// Removal envelopes never reach `merge`: each is checked and paired with the tombstone
    /// right after it (`RemovalPairing`), whose merge is handed its context as `removal`.
    public static func apply(_ db: Connection, zone: String, ownDevice: String, batches: [IncomingBatch], keepsRejectedBytes: Bool = true,
                             deletionsSeen: Bool,
                             merge: (Envelope, _ pending: Bool, _ deletionsSeen: Bool, _ removal: VersionContext?) throws -> MergeOutcome) throws -> ApplyReport {
        var report = ApplyReport()
        var deletionsSeen = deletionsSeen
        var pending = Set(try db.query("SELECT record_name FROM replication_journal") { $0.text(0) ?? "" })
        var removals = RemovalPairing()
        for batch in batches {
            // A quarantined object that now opens leaves quarantine as its envelopes apply.
            if let held = batch.releasesQuarantine { try db.run("DELETE FROM replication_quarantine WHERE id = ?", [held]) }
            for rejected in batch.rejected {
                let kept = keepsRejectedBytes ? rejected
                    : RejectedEnvelope(recordName: rejected.recordName, reason: rejected.reason, bytes: [], objectDigest: rejected.objectDigest)
                try quarantine(db, zone: zone, kept, device: batch.device, sequence: batch.sequence)
                report.quarantined += 1
            }
            var newestAccepted: RecordVersion?
            for envelope in batch.envelopes {
                let outcome = envelope.isRemoval ? removals.hold(envelope)
                    : try merge(envelope, pending.contains(envelope.recordName), deletionsSeen, removals.context(for: envelope))
                if outcome == .applied || outcome == .ignored { newestAccepted = max(newestAccepted ?? envelope.version, envelope.version) }
                // A fetched version that won replaced a pending edit, unless the merge kept part of
                // it to send (a field-level merge): the journal says which.
                if outcome == .applied {
                    if pending.contains(envelope.recordName), try Journal.pendingVersion(db, recordName: envelope.recordName) == nil { pending.remove(envelope.recordName) }
                    if envelope.deleted { deletionsSeen = true }
                }
                try record(outcome, of: envelope, in: &report, db, zone: zone, device: batch.device)
            }
            // The clock moves past what was accepted, never past a version quarantined as
            // invalid: a forged record's far-ahead clock would drag every later local edit along.
            if let newestAccepted { try LocalClock.observe(db, newestAccepted) }
            if batch.advancesCursor {
                try advance(db, zone: zone, device: batch.device, sequence: batch.sequence, ownDevice: ownDevice)
            }
            // A conflict copy, or an object quarantined whole that opens now, counts too.
            if batch.sequence > 0 { try noteHeard(db, zone: zone, from: batch) }
            for (device, sequence) in batch.covers where sequence > 0 {
                try advance(db, zone: zone, device: device, sequence: sequence, ownDevice: ownDevice)
            }
            // A snapshot's part brings what those batches held, whoever wrote them.
            for (device, sequence) in batch.brings where sequence > 0 && !batch.envelopes.isEmpty {
                try raise(db, zone: zone, key: appliedPrefix + device, to: sequence)
            }
        }
        if report.quarantined > 0 { try enforceQuarantineLimit(db, zone: zone) }
        return report
    }

    /// Counts a merge outcome, quarantining what did not apply.
    private static func record(_ outcome: MergeOutcome, of envelope: Envelope, in report: inout ApplyReport, _ db: Connection,
                               zone: String, device: String) throws {
        let version = receivedNow(from: device)
        switch outcome {
        case .applied: report.applied += 1
        case .ignored: report.ignored += 1
        case .quarantined(let reason):
            try Journal.quarantine(db, zone: zone, recordName: envelope.recordName, reason: reason, bytes: envelope.payload, at: version)
            report.quarantined += 1
        case .unsupported(let reason):
            try Journal.quarantine(db, zone: zone, recordName: envelope.recordName, reason: reason, bytes: envelope.payload, at: version,
                                   envelope: BatchCodec.encode(envelope))
            report.quarantined += 1
        case .refused(let reason):
            try Journal.quarantine(db, zone: zone, recordName: envelope.recordName, reason: reason, bytes: [], at: version)
            report.quarantined += 1
        }
    }

    /// Merges again every quarantined envelope a newer build wrote, inside the store's write
    /// transaction: what this build now understands leaves quarantine (applied, ignored, or
    /// quarantined afresh for another reason); the rest stays, untouched.
    public static func replay(_ db: Connection, zone: String, merge: (Envelope, _ pending: Bool) throws -> MergeOutcome) throws -> ApplyReport {
        var report = ApplyReport()
        let held = try db.query("SELECT id, envelope FROM replication_quarantine WHERE envelope IS NOT NULL ORDER BY id") { ($0.int64(0), $0.blob(1) ?? []) }
        guard !held.isEmpty else { return report }
        let pending = Set(try db.query("SELECT record_name FROM replication_journal") { $0.text(0) ?? "" })
        for (id, bytes) in held {
            guard let envelope = try? BatchCodec.decode(bytes) else { continue }
            // A removal alone (an older build kept it) changes nothing: its tombstone was judged.
            let outcome = envelope.isRemoval ? .ignored : try merge(envelope, pending.contains(envelope.recordName))
            if case .unsupported = outcome { continue }
            try db.run("DELETE FROM replication_quarantine WHERE id = ?", [id])
            try LocalClock.observe(db, envelope.version)
            try record(outcome, of: envelope, in: &report, db, zone: zone, device: envelope.version.device)
        }
        return report
    }

    /// For an explicit rebind: forgets what was fetched (everything is fetched again; merging is
    /// idempotent) and continues this device's sequence right after its last object still on
    /// the remote — 1 when the remote was wiped — so other devices see no gap.
    public static func restart(_ db: Connection, zone: String, nextSequence: UInt64) throws {
        try db.run("DELETE FROM replication_cursors WHERE zone = ?", [zone])
        try db.run("DELETE FROM replication_unreadable")
        // What was read before counts for nothing now: neither a shortfall nor a race.
        try db.run("DELETE FROM replication_values WHERE zone = ? AND (key = 'shortfall-runs' OR (key >= ? AND key < 'applied;'))", [zone, appliedPrefix])
        try db.run("INSERT OR REPLACE INTO replication_sequences (zone, next) VALUES (?, ?)", [zone, nextSequence])
    }

    static let inspectedPrefix = "inspected:"

    /// After `ZoneStore.undoRevoked` of `device`'s objects: every writer's objects this device
    /// has read are read again, its own included (`rereadHistoryKey`; merging is idempotent), so
    /// a record whose standing version was removed gets back the version it had before from the
    /// history still on the remote, besides what members send again. No cursor moves back:
    /// reading again from the start could not pass a batch collected since, and this
    /// device would read nothing more of that writer. Only `device`'s taken-in mark goes (its
    /// undo is done); the others still say what this device took in, for later revocations.
    public static func undid(_ db: Connection, zone: String, device: String) throws {
        try db.run("DELETE FROM replication_values WHERE zone = ? AND key = ?", [zone, appliedPrefix + device])
        try setValue(db, zone: zone, key: rereadHistoryKey, ZoneEngine.encodeNumber(1))
    }

    /// Whether history is to be read again (1) or not (0, or none).
    static let rereadHistoryKey = "reread-history"

    /// After `ZoneStore.republishRevoked`: the revoked `device`'s objects were inspected
    /// through `sequence`.
    public static func inspected(_ db: Connection, zone: String, device: String, through sequence: UInt64) throws {
        try setValue(db, zone: zone, key: inspectedPrefix + device, ZoneEngine.encodeNumber(sequence))
    }

    /// The sequence after this device's last object of `zone` on the remote.
    public static func nextSequence(on remote: any Remote, zone: String, device: String) throws -> UInt64 {
        let last = try remote.list(prefix: "zones/\(zone)/\(device)/").compactMap { BatchObjectName($0, zone: zone) }
            .filter { !$0.isConflictCopy }.map(\.sequence).max() ?? 0
        return last + 1
    }
}
