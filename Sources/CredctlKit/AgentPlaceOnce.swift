import Agent
import Synchronization

/// Where the vault's agent listens, worked out the first time a `Context` (a value passed around
/// as a constant) asks, and kept for the rest of the command.
///
/// Not a generic "computed once" box: a generic class's metadata is built at run time on its
/// first use in every process (11,000 instructions of each `credctl read`).
final class AgentPlaceOnce: Sendable {
    private let stored = Mutex<AgentPlace?>(nil)

    func value(_ compute: () -> AgentPlace) -> AgentPlace {
        stored.withLock { stored in
            if let stored { return stored }
            let value = compute()
            stored = value
            return value
        }
    }
}
