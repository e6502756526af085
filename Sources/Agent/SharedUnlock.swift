import Synchronization

/// The agent's vault behind a mutex, for the accept loop, the deadline timer and the ssh-agent
/// connections.
final class SharedUnlock: Sendable {
    private let unlock: AgentUnlock
    private let mutex = Mutex(())

    init(_ unlock: AgentUnlock) { self.unlock = unlock }

    func with<T>(_ body: (AgentUnlock) -> T) -> T { mutex.withLock { _ in body(unlock) } }
}
