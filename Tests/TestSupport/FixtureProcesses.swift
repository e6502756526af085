import Foundation
import Synchronization

/// Daemons the fixtures start (session buses, sshd) are stopped when the test process exits,
/// even when XCTest keeps a fixture alive until then (it keeps every test case object).
public enum FixtureProcesses {
    private static let running = Mutex<Set<pid_t>>([])
    private static let installed = Mutex(false)

    public static func register(_ pid: pid_t) {
        running.withLock { _ = $0.insert(pid) }
        installed.withLock { done in
            guard !done else { return }
            done = true
            atexit { FixtureProcesses.running.withLock { for pid in $0 { kill(pid, SIGTERM) } } }
        }
    }

    public static func unregister(_ pid: pid_t) { running.withLock { _ = $0.remove(pid) } }
}
