import Glibc

/// Runs a command as a child process and reports its wall time and peak memory (from `wait4`'s
/// resource usage, which counts the child alone).
struct ChildRun {
    let seconds: Double
    let peakMiB: Double
    let status: Int32

    static func run(_ arguments: [String], environment: [String]) throws -> ChildRun {
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let start = MonotonicClock.now()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else {
            throw BenchError("Unable to start \(arguments[0]).")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        return ChildRun(seconds: MonotonicClock.seconds(since: start), peakMiB: Double(usage.ru_maxrss) / 1_024, status: status)
    }
}
