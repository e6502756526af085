/// The agent's memory at one moment, from `/proc/PID/status`, in MiB.
struct AgentMemorySample: Codable {
    /// `VmRSS`: resident now.
    let residentMiB: Double
    /// `VmHWM`: the most it has been resident since it started (Argon2id's 64 MiB included).
    let peakMiB: Double
}
