/// What the revocation benchmark measured for one vault size (every time the wall time of a
/// release `credctl` child process, with its peak memory where it matters).
struct RevocationResult: Codable {
    let secrets: Int
    /// `credctl device revoke NAME --yes` on the first device: sync, the revocation entry, the
    /// reseal of every body into the new epoch, sync.
    let revokeSeconds: Double
    let revokePeakMiB: Double
    /// On another member afterwards: `credctl sync` (learns the epoch), then the first command
    /// that unlocks (`credctl migrate`, which reseals its bodies once), then `credctl sync --compact`.
    let otherSyncSeconds: Double
    let otherResealSeconds: Double
    let otherCompactSeconds: Double
    /// A new device joining by approval: `init --join` writing its request, the approval on the
    /// first device (in process), and `init --join --confirm` with its first sync of everything.
    let requestSeconds: Double
    let approveSeconds: Double
    let confirmAndJoinSeconds: Double
    let confirmAndJoinPeakMiB: Double
}

/// The JSON written by `credbench revoke`.
struct RevocationBenchmarkReport: Codable {
    let machine: MachineInfo
    let results: [RevocationResult]
}
