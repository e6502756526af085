/// What a track provides so one of its zones can replicate: the journal contract.
///
/// Each track implements it over its **own** database, so a local edit and its upload intent
/// commit together (the track's write transactions call `Journal.record`), and so an incoming
/// batch applies — records, cursor, quarantine — in one transaction.
public protocol ZoneStore: Sendable {
    /// The zone's name on the remote (`config`, `secrets`).
    var zone: String { get }
    /// This device; its own objects are never fetched back as changes.
    var deviceID: String { get }

    /// Cursors (last sequence applied per writer device) and this device's next sequence.
    func syncState() throws -> ZoneSyncState

    /// Pending local changes as envelopes, oldest first, at most `limit`. Items that must not
    /// leave the device (device-only secrets) are never returned.
    func pendingChanges(limit: Int) throws -> [Envelope]

    /// Applies fetched batches, in order, in a single transaction: merges every envelope that
    /// wins (without journaling it as a local edit), quarantines rejected or unsupported ones
    /// with their reason, and advances each writer's cursor to a batch's `sequence` when
    /// `advancesCursor`. All of them or none: a crash leaves every cursor where it was.
    func apply(_ batches: [IncomingBatch]) throws -> ApplyReport

    /// Merges again, in one transaction, the quarantined envelopes a newer build wrote (see
    /// `MergeOutcome.unsupported`): after an upgrade they apply.
    func replayQuarantined() throws -> ApplyReport

    /// Counts one more sync run that found the object `name` unreadable (content digest
    /// `digest`); returns how many consecutive runs saw the same unreadable bytes.
    func noteUnreadable(_ name: String, digest: [UInt8]) throws -> Int

    /// Objects quarantined whole (id, name, `SyncTables.objectDigest` of the bytes last seen),
    /// read again by every sync until they open.
    func quarantinedObjects() throws -> [(id: Int64, name: String, digest: [UInt8])]

    /// Remembers other bytes of a quarantined object that still do not open.
    func noteQuarantinedObject(id: Int64, digest: [UInt8], reason: String) throws

    /// Whether the conflict copy `name` with this content was already applied.
    func wasIngested(_ name: String, digest: [UInt8]) throws -> Bool

    /// Remembers that the conflict copy `name` with this content was applied.
    func markIngested(_ name: String, digest: [UInt8]) throws

    /// Remembers that the object with this content digest is about to be published as
    /// `sequence` (until `acknowledge`), and reads that back.
    func notePublishing(sequence: UInt64, digest: [UInt8]) throws
    func publishing(sequence: UInt64) throws -> [UInt8]?

    /// The zone's merged state for a snapshot, in one read transaction: hands every syncable
    /// record (live or deleted) to `emit`, one envelope at a time, and returns the cursor
    /// vector that state covers (the last sequence applied per writer, this device's own last
    /// published sequence included). Returns nil when it cannot be a snapshot now — before
    /// emitting anything when local changes still wait to be sent (they are in no batch yet);
    /// possibly after, when a body turns out missing; what was emitted is then abandoned.
    /// Quarantined envelopes a newer build can apply are included, so no one loses them.
    func snapshotState(_ emit: (Envelope) throws -> Void) throws -> [String: UInt64]?

    /// The oldest of this device's own published batches it still has to read back (a migrated
    /// secret whose remote copy is not verified yet), or nil. Compaction publishes this
    /// device's own position as just before it, so no device collects that batch or later ones.
    func firstSequenceStillNeeded() throws -> UInt64?

    /// Small values the replication engine keeps for itself (what it last published, when it
    /// last collected), by key; nil when never set.
    func bookkeepingValue(_ key: String) throws -> [UInt8]?
    func setBookkeepingValue(_ key: String, _ value: [UInt8]) throws

    /// Undoes, in one transaction, what this device took in of revoked `device` past its
    /// `cutoff` (docs/devices.md, "Revocation and rotation"): each record whose standing version
    /// is one of `versions[name]` (what those objects held), and which holds no pending local
    /// change, is removed — the members that did not take them in send it again as they hold it.
    /// Device-only secrets are never touched. Then `SyncTables.undid` (every other writer's
    /// objects are read again).
    func undoRevoked(_ device: String, versions: [String: Set<RecordVersion>]) throws

    /// Queues each of `records` this device holds to be sent again as it stands here (what the
    /// revoked `device`'s objects past its cutoff, through `inspectedThrough`, touched), in one
    /// transaction with `SyncTables.inspected`.
    func republishRevoked(_ device: String, records: [String], inspectedThrough: UInt64) throws

    /// Records that `sent` was published as `sequence`: the next sequence moves past it and each
    /// journal entry is cleared only if it still holds exactly the version that was sent.
    func acknowledge(_ sent: [Envelope], sequence: UInt64) throws
}
