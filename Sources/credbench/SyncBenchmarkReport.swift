/// The JSON written by `credbench sync`.
struct SyncBenchmarkReport: Codable {
    let machine: MachineInfo
    let results: [SyncResult]
}
