/// Everything measured for one vault size.
struct SizeResult: Codable {
    let hosts: Int
    /// Populating through `Vault.addHost`, one durable transaction pair per host.
    let buildSeconds: Double
    let insertsPerSecond: Double
    /// `Vault.open` plus `unlock` with the key file, after the build handle was closed.
    let reopenMilliseconds: Double
    let databaseMiB: Double
    /// Right after reopening and a short warm-up: pages are mapped on first touch.
    let resolve: LatencySummary
    /// After resolving every host once: the steady state of a long-running process.
    let steadyResolve: LatencySummary
    /// `resolve` of a label no host has: the `notFound` error path.
    let notFound: LatencySummary
    /// Resident high-water mark (`VmHWM`) after this size; cumulative across sizes.
    let peakResidentMiB: Double
    /// `ru_maxrss` after this size; under `swift run` it includes SwiftPM's peak before exec.
    let ruMaxRSSMiB: Double
    let residentMiBAfter: Double
}
