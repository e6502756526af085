import CredentialVault
import Dispatch
import Glibc
import Synchronization

/// The agent's background sync (docs/agent.md, "Background sync"): every `interval` seconds,
/// with up to a tenth of it added at random so devices do not all sync at once, and after a
/// failure later and later (doubling, up to an hour) — locked or not, since a sync needs no key.
/// It syncs through a vault of its own, so a slow remote never holds up the agent's answers.
public final class AgentSync: Sendable {
    public static let defaultInterval = 300
    static let longestBackoff = 3_600

    private let vaultPath: String
    private let interval: Int
    private let state = Mutex(AgentSyncStatus(last: nil, next: nil, error: nil))
    private let stopping = Atomic(false)

    init(vaultPath: String, interval: Int) {
        self.vaultPath = vaultPath
        self.interval = interval
    }

    var current: AgentSyncStatus { state.withLock { $0 } }

    /// Runs on a thread of its own until `stop`.
    func start() {
        DispatchQueue.global(qos: .utility).async { [self] in loop() }
    }

    func stop() { stopping.store(true, ordering: .relaxed) }

    private func loop() {
        var wait = interval
        while !stopping.load(ordering: .relaxed) {
            let pause = wait + Int.random(in: 0...max(0, wait / 10))
            state.withLock { $0 = AgentSyncStatus(last: $0.last, next: Self.now + Int64(pause), error: $0.error) }
            for _ in 0..<(pause * 10) where !stopping.load(ordering: .relaxed) { usleep(100_000) }
            guard !stopping.load(ordering: .relaxed) else { return }
            let problem = syncOnce()
            state.withLock { $0 = AgentSyncStatus(last: Self.now, next: nil, error: problem) }
            wait = problem == nil ? interval : min(wait * 2, Self.longestBackoff)
        }
    }

    /// One sync of every zone; nil when each was available, else what went wrong.
    private func syncOnce() -> String? {
        do {
            let vault = try Vault.open(at: vaultPath)
            guard vault.hasRemote else { return nil }
            let failed = try vault.sync().filter { $0.state != .available }
            return failed.isEmpty ? nil : failed.map { "\($0.zone.rawValue): \($0.reason ?? $0.state.rawValue)" }.joined(separator: "; ")
        } catch {
            return VaultError.from(error).message
        }
    }

    private static var now: Int64 { Int64(time(nil)) }
}
