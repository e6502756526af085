/// The agent's memory for one vault size, from its own start by `credctl unlock` to its end.
struct AgentMemoryResult: Codable {
    let hosts: Int
    /// Building the vault up to this size (cumulative, creation included).
    let buildSeconds: Double
    /// `credctl --passphrase-file F unlock`, whole process: starting the agent and its Argon2id.
    let unlockMilliseconds: Double
    let afterUnlock: AgentMemorySample
    /// After `reads` reads through the agent (`credctl read`, whole process each).
    let afterReads: AgentMemorySample
    let reads: Int
    /// After `credctl lock`: the keys wiped, the process still running.
    let locked: AgentMemorySample
}
