import FoundationEssentials

/// The part of `credctl status --json` the agent benchmark reads: whether an agent serves the
/// vault, whether it holds it unlocked, and its pid (to read its memory and to end it).
struct CredctlStatus: Decodable {
    struct Agent: Decodable {
        /// `unlocked`, `locked` or `not-running`.
        let state: String
        let pid: Int32?
    }

    let agent: Agent

    static func decode(_ text: String) throws -> CredctlStatus {
        try JSONDecoder().decode(CredctlStatus.self, from: Data(text.utf8))
    }
}
