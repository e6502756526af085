import Sodium

/// What the agent answers (docs/agent.md, "Wire format").
public enum AgentResponse {
    case ok
    case secret(SecretBytes)
    /// Unlocked or not, the seconds left before it locks (nil when locked), its pid, the id of the
    /// vault it serves (a client of another vault at the same place treats it as absent).
    case status(unlocked: Bool, secondsLeft: Int?, pid: Int32, vaultID: String, sync: AgentSyncStatus)
    /// A socket's path (an ssh-agent socket made for the client).
    case path(String)
    /// A `VaultError` code, its message and hint.
    case error(code: String, message: String, hint: String?)

    var frame: Frame {
        get throws {
            switch self {
            case .ok: return Frame(type: 0x80, fields: [])
            case .secret(let body): return Frame(type: 0x81, fields: [body])
            case .status(let unlocked, let left, let pid, let vaultID, let sync):
                return try Frame(type: 0x82, texts: [unlocked ? "unlocked" : "locked", left.map(String.init) ?? "", String(pid), vaultID,
                                                     sync.last.map(String.init) ?? "", sync.next.map(String.init) ?? "", sync.error ?? "",
                                                     String(sync.count), sync.watch ?? ""])
            case .path(let path): return try Frame(type: 0x83, texts: [path])
            case .error(let code, let message, let hint): return try Frame(type: 0xFF, texts: [code, message, hint ?? ""])
            }
        }
    }

    public init?(_ frame: Frame) {
        switch (frame.type, frame.fields.count) {
        case (0x80, 0): self = .ok
        case (0x81, 1): self = .secret(frame.fields[0])
        // 7 fields: an agent from before the sync count and the watch.
        case (0x82, 7), (0x82, 9):
            guard let state = frame.text(0), let pid = frame.text(2).flatMap(Int32.init), let vaultID = frame.text(3) else { return nil }
            let sync = AgentSyncStatus(last: frame.text(4).flatMap(Int64.init), next: frame.text(5).flatMap(Int64.init),
                                       error: frame.text(6).flatMap { $0.isEmpty ? nil : $0 }, count: frame.text(7).flatMap(Int.init) ?? 0,
                                       watch: frame.text(8).flatMap { $0.isEmpty ? nil : $0 })
            self = .status(unlocked: state == "unlocked", secondsLeft: frame.text(1).flatMap(Int.init), pid: pid, vaultID: vaultID, sync: sync)
        case (0x83, 1):
            guard let path = frame.text(0), path.hasPrefix("/") else { return nil }
            self = .path(path)
        case (0xFF, 3):
            guard let code = frame.text(0), let message = frame.text(1) else { return nil }
            self = .error(code: code, message: message, hint: frame.text(2).flatMap { $0.isEmpty ? nil : $0 })
        default: return nil
        }
    }
}
