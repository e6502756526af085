/// What one zone's sync run did, or why it could not.
public struct ZoneOutcome: Sendable {
    public enum State: String, Sendable {
        /// The run fetched and sent everything.
        case available
        /// The remote could not be used; local work continues.
        case localFallback
        /// Sync stopped until the user acts (the remote was replaced, a name conflict).
        case needsAttention
    }

    public let zone: SyncZone
    public let state: State
    /// Why, for the two failure states.
    public let reason: String?
    public let fetchedObjects: Int
    public let applied: Int
    public let quarantined: Int
    public let waiting: Int
    public let sentChanges: Int
    /// Compaction in this run: snapshots read (a join or catch-up) and written, old objects
    /// collected, and why compaction stopped short, if it did (the sync itself still counts).
    public var snapshotsRead = 0
    public var snapshotsWritten = 0
    public var collectedObjects = 0
    public var compactionProblem: String?
    /// The revoked devices whose changes past their cutoff this device had taken in (a
    /// revocation race), by name: the run undid what they brought.
    public var undidRevoked: [String] = []
    /// For a failed zone, the kind of failure when it tells the user what to do: `.accessDenied`
    /// (the remote refused the credentials: fix them) or `.unavailable` (it could not be reached:
    /// try again later).
    public var failure: VaultError.Code?
}
