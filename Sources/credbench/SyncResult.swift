/// What the sync benchmark measured for one vault size.
struct SyncResult: Codable {
    let hosts: Int
    /// Hosts plus their passwords: the records a joining device receives.
    let records: Int
    /// `directory` or `s3` (SeaweedFS on 127.0.0.1).
    let backend: String
    /// Whether the first device compacted before the join: a snapshot instead of history.
    let snapshots: Bool
    let buildSeconds: Double
    /// The first device publishing everything (in process).
    let publishSeconds: Double
    /// The first device writing the snapshot and collecting the batches it covers.
    let compactSeconds: Double?
    /// `credctl init --join` of a new device, as a child process: its wall time and peak memory.
    let joinSeconds: Double
    let joinPeakMiB: Double
    /// One host edited on the first device, then `credctl sync` on the second; repeated
    /// `oneChangeRounds` times: the median, the slowest round, and the highest peak memory.
    let oneChangeSyncMilliseconds: Double
    let oneChangeSlowestMilliseconds: Double
    let oneChangeRounds: Int
    let oneChangePeakMiB: Double
    /// Objects on the remote when the device joined.
    let remoteObjectsAtJoin: Int
}
