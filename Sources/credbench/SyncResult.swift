/// What the sync benchmark measured for one vault size.
struct SyncResult: Codable {
    let hosts: Int
    /// Hosts plus their passwords: the records a joining device receives.
    let records: Int
    let buildSeconds: Double
    /// The first device publishing everything (in process).
    let publishSeconds: Double
    /// `credctl init --join` of a new device, as a child process: its wall time and peak memory.
    let joinSeconds: Double
    let joinPeakMiB: Double
    /// One host edited on the first device, then `credctl sync` on the second.
    let oneChangeSyncMilliseconds: Double
    let oneChangePeakMiB: Double
    let remoteObjects: Int
}
