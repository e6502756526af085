/// The JSON written by `credbench agent`.
struct AgentBenchmarkReport: Codable {
    let machine: MachineInfo
    let options: AgentBenchOptions
    /// The passphrase slot's Argon2id parameters (what every passphrase read and unlock pays).
    let kdf: String
    let reads: [AgentReadResult]
    let memory: [AgentMemoryResult]
}
