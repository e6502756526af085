/// What one sync run of a zone did.
public struct ZoneSyncReport: Sendable, Equatable {
    public let zone: String
    /// Batch objects read and applied (including quarantined ones).
    public var fetchedObjects = 0
    /// Changes read from those objects so far (applied or not); for progress displays.
    public var receivedChanges = 0
    public var applied = 0
    public var ignored = 0
    public var quarantined = 0
    /// Objects that did not open yet and will be retried (for example still being copied).
    public var waiting = 0
    /// Objects under this device's own name that it did not publish: another writer uses its
    /// identity (a copied vault directory) or its state was restored from a backup. They are
    /// merged (nothing is lost), but nothing is sent in that run.
    public var foreignObjectsUnderOwnName = 0
    /// Objects whose signature is not their writer's (quarantined whole).
    public var forgedObjects = 0
    /// This device's own objects are listed past a gap it has not read (a restore from an older
    /// backup while the sync tool delivers): nothing was sent in that run.
    public var ownObjectsAhead = false
    /// Writers whose objects the remote shows fewer of than this device has read (with the
    /// sequence read), no snapshot covering the difference, for several runs in a row: the remote
    /// was rolled back or withholds objects (`ZoneEngine.shortfalls`).
    public var shortfalls: [String: UInt64] = [:]
    /// Revoked writers whose changes past their cutoff this device had taken in: the run
    /// undid them (`ZoneEngine+Revocation`).
    public var undidRevoked: [String] = []
    /// What this device took in of a revoked writer past its cutoff is to be undone, but not
    /// all of it can be read yet: nothing else was read or sent in that run.
    public var undoWaits = false
    public var sentChanges = 0
    public var sentObjects = 0
    /// Compaction: snapshots read and written, old objects collected, and why compaction
    /// stopped short, if it did.
    public var snapshotsRead = 0
    public var snapshotsWritten = 0
    public var collectedObjects = 0
    public var compactionProblem: String?

    public init(zone: String) { self.zone = zone }
}
