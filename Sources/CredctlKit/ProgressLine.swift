import Glibc
import Synchronization

/// Progress for work that takes more than a second, on standard error when it is a terminal —
/// never when piped and never with `--json`. One line, rewritten in place and cleared at the end.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let start = ProgressLine.now()
    /// Milliseconds of quiet before the first update (`CREDCTL_PROGRESS_AFTER_MS` for tests).
    private let delay: UInt64
    private let state = Mutex<(shown: Bool, last: UInt64)>((false, 0))

    init(context: Context) {
        enabled = !context.json && Output.isTerminal(2)
        delay = context.environment["CREDCTL_PROGRESS_AFTER_MS"].flatMap(UInt64.init) ?? 1_000
    }

    func update(_ text: String) {
        guard enabled else { return }
        let now = Self.now()
        let due = state.withLock { state -> Bool in
            guard now - start >= delay, now - state.last >= 100 || !state.shown else { return false }
            state = (true, now)
            return true
        }
        // One write, so two zones' updates never interleave.
        if due { Output.errControl("\r\u{1B}[K" + TerminalText.inert("credctl: \(text)")) }
    }

    func finish() {
        if state.withLock({ $0.shown }) { Output.errControl("\r\u{1B}[K") }
    }

    private static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000 + UInt64(spec.tv_nsec) / 1_000_000
    }
}
