import CredentialVault
import Glibc
import Synchronization
import Threads
import UnixSockets

/// The agent's background sync (docs/agent.md, "Background sync"): every `interval` seconds,
/// with up to a tenth of it added at random so devices do not all sync at once, and after a
/// failure later and later (doubling, up to an hour) — locked or not, since a sync needs no key.
/// Besides, soon after a trigger: a local change a client reports (`changed`), or a change in
/// the remote directory (`RemoteWatch`). It syncs through a vault of its own, on a thread of its
/// own, so neither a slow remote nor a burst of triggers holds up the agent's answers.
public final class AgentSync: Sendable {
    public static let defaultInterval = 300
    static let longestBackoff = 3_600
    /// A trigger waits this long for another (milliseconds), so a script that adds a hundred
    /// hosts causes one sync…
    static let debounce: Int64 = 2_000
    /// …but no longer than this after the first it gathered: a script that never pauses still
    /// has its changes sent.
    static let longestDebounce: Int64 = 10_000
    /// After a failure a trigger syncs sooner than the backoff (an edit is worth a try), but no
    /// sooner than this after the failed attempt, so edits made offline do not hammer a remote
    /// that is away.
    static let retryAfterFailure: Int64 = 60_000

    private let vaultPath: String
    private let interval: Int
    private let state = Mutex(AgentSyncStatus(last: nil, next: nil, error: nil))
    /// When a trigger wants its sync and when its first came (milliseconds on `Deadline`'s
    /// clock); nil when none waits.
    private let trigger = Mutex<(due: Int64, first: Int64)?>(nil)
    private let stopping = Atomic(false)

    init(vaultPath: String, interval: Int) {
        self.vaultPath = vaultPath
        self.interval = interval
    }

    var current: AgentSyncStatus { state.withLock { $0 } }

    /// Runs on a thread of its own until `stop`.
    func start() {
        guard DetachedThread.start({ [self] in loop() }) else {
            publish { _ in AgentSyncStatus(last: nil, next: nil, error: "no thread could be started for background sync") }
            return
        }
    }

    func stop() { stopping.store(true, ordering: .relaxed) }

    /// The vault changed here (a client's `changed`): sync soon. Only notes it; the sync thread
    /// syncs.
    func changed() {
        let now = Deadline.nowMilliseconds
        trigger.withLock { waiting in
            let first = waiting?.first ?? now
            waiting = (min(now + Self.debounce, first + Self.longestDebounce), first)
        }
    }

    private func loop() {
        var wait = interval
        var scheduled = Self.nextStart(after: wait)
        var retryFrom: Int64 = 0
        var watch = RemoteWatchSlot(vaultPath: vaultPath)
        publish { _ in AgentSyncStatus(last: nil, next: Self.unixTime(of: scheduled), error: nil, watch: watch.description) }
        while !stopping.load(ordering: .relaxed) {
            if watch.wait(milliseconds: 100) { changed() }
            let now = Deadline.nowMilliseconds
            let triggered = trigger.withLock { $0.map { now >= max($0.due, retryFrom) } ?? false }
            guard now >= scheduled || triggered, !stopping.load(ordering: .relaxed) else { continue }
            // What triggered so far is covered by this sync; what comes while it runs gets another.
            trigger.withLock { $0 = nil }
            publish { AgentSyncStatus(last: $0.last, next: nil, error: $0.error, count: $0.count, watch: $0.watch) }
            let problem = syncOnce()
            wait = problem == nil ? interval : min(wait * 2, Self.longestBackoff)
            scheduled = Self.nextStart(after: wait)
            retryFrom = problem == nil ? 0 : Deadline.nowMilliseconds + Self.retryAfterFailure
            // The remote may have been bound anew, or its directory come back.
            watch.refresh()
            publish { AgentSyncStatus(last: Int64(time(nil)), next: Self.unixTime(of: scheduled), error: problem, count: $0.count + 1, watch: watch.description) }
        }
    }

    private func publish(_ change: (AgentSyncStatus) -> AgentSyncStatus) { state.withLock { $0 = change($0) } }

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

    /// When the next scheduled sync starts: `seconds` from now, and up to a tenth more.
    private static func nextStart(after seconds: Int) -> Int64 {
        Deadline.nowMilliseconds + Int64(seconds + Int.random(in: 0...max(0, seconds / 10))) * 1_000
    }

    /// A moment on `Deadline`'s clock as Unix seconds, for `status`.
    private static func unixTime(of moment: Int64) -> Int64 { Int64(time(nil)) + (moment - Deadline.nowMilliseconds) / 1_000 }
}
