import Glibc

/// Runs a command as a child process and reports its wall time and peak memory.
///
/// Standard output goes to `output`: /dev/null unless given, since it may be a secret.
///
/// The peak is the child's own `VmHWM`, sampled every millisecond until it exits: `wait4`'s
/// `ru_maxrss` cannot be used, because Linux carries the spawning process's resident high-water
/// mark across `execve`, so a child of this (large) benchmark process would report the parent's
/// memory as its own. Memory only shrinks while a process exits, so the last sample is its peak.
/// Sampling notices the exit up to a millisecond late; a run timed to the millisecond and below
/// passes `watchingMemory: false` and is reaped by a blocking wait instead (its peak reads 0).
struct ChildRun {
    let seconds: Double
    let peakMiB: Double
    let status: Int32

    static func run(_ arguments: [String], environment: [String], output: String = "/dev/null",
                    watchingMemory: Bool = true) throws -> ChildRun {
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let start = MonotonicClock.now()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { posix_spawn_file_actions_destroy(&actions) }
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else {
            throw BenchError("Unable to start \(arguments[0]).")
        }
        var status: Int32 = 0
        var peakKiB = 0
        while true {
            let reaped = waitpid(pid, &status, watchingMemory ? WNOHANG : 0)
            if reaped == pid || (reaped < 0 && errno != EINTR) { break }
            guard watchingMemory else { continue }
            peakKiB = max(peakKiB, highWaterKiB(pid))
            usleep(1_000)
        }
        return ChildRun(seconds: MonotonicClock.seconds(since: start), peakMiB: Double(peakKiB) / 1_024, status: status)
    }

    /// The `VmHWM` line of /proc/PID/status in KiB (0 once the process has let go of its memory).
    private static func highWaterKiB(_ pid: pid_t) -> Int {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("VmHWM:") { return Int(String(text.dropFirst(6).filter(\.isNumber))) ?? 0 }
        }
        return 0
    }
}
