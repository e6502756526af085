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

    /// Starts a daemon in the foreground as this process's child — posix_spawn, not Foundation's
    /// Process, whose child monitor blocks in waitpid on a long-lived daemon and then reaps no
    /// other child — with its output in `log` (else /dev/null), registered to be stopped at exit.
    public static func spawn(_ words: [String], log: String? = nil, environment: [String] = []) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let variables: [UnsafeMutablePointer<CChar>?] = (environment + ["PATH=/usr/sbin:/usr/bin:/bin"]).map { strdup($0) } + [nil]
        defer { (arguments + variables).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, words[0], &actions, nil, arguments, variables) == 0 else { throw SeaweedFailure("\(words[0]) did not start") }
        register(pid)
        return pid
    }
}
