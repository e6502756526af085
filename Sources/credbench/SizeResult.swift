/// Everything measured for one vault size.
struct SizeResult: Codable {
    let hosts: Int
    /// Populating through `Vault.addHost`, one durable transaction pair per host.
    let buildSeconds: Double
    let insertsPerSecond: Double
    /// `Vault.open` plus `unlock` with the key file, after the build handle was closed.
    let reopenMilliseconds: Double
    let databaseMiB: Double
    let resolve: LatencySummary
    /// `resolve` of a label no host has: the `notFound` error path.
    let notFound: LatencySummary
    /// Resident high-water mark (`VmHWM`) after this size; cumulative across sizes.
    let peakResidentMiB: Double
    /// `ru_maxrss` after this size; under `swift run` it includes SwiftPM's peak before exec.
    let ruMaxRSSMiB: Double
    let residentMiBAfter: Double
}
