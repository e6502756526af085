/// Whole-process `credctl read` of one password, one way of getting at the key (or, as a floor,
/// a command that reads nothing).
struct AgentReadResult: Codable {
    /// `agent` (no key given; an unlocked agent hands out the body), `key file`
    /// (`--key-file`, no agent), `passphrase` (`--passphrase-file`, Argon2id, no agent), or
    /// `credctl --version`: no read at all, the cost of starting any command.
    let way: String
    /// Wall time from spawn to reap, in microseconds.
    let latency: LatencySummary
    /// `VmHWM` of the warm-up run's `credctl` process.
    let clientPeakMiB: Double
    /// This way's median over the agent's median.
    let medianOverAgent: Double
}
