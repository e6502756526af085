import CPosix
import Glibc
import Sodium
import SystemErrors

/// A program started with `posix_spawn`: an explicit argument vector and environment, the
/// default disposition of the signals a terminal sends, and optionally bytes on its standard
/// input (written from guarded memory through a pipe, never through a file).
public struct ChildProcess: Sendable {
    public let pid: pid_t

    /// Starts `executable`; with `input`, its standard input is a pipe that receives those bytes
    /// and then end of file; with `silent`, its standard output and error go to /dev/null; with
    /// `output`, its standard output is that descriptor (the caller keeps and closes it).
    /// With `newSession`, the child leads a session of its own (`setsid`): no terminal, and no
    /// signal meant for this process's group reaches it (a daemon).
    public static func spawn(_ executable: String, _ arguments: [String], environment: ChildEnvironment,
                             input: SecretBytes? = nil, silent: Bool = false, output: Int32? = nil, newSession: Bool = false) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var fds: [Int32] = [-1, -1]
        if input != nil {
            // Neither end may leak into other children; the child's standard input is a dup2 copy.
            guard cposix_pipe_cloexec(&fds) == 0 else { throw LaunchError("Cannot create a pipe (\(SystemError.describe(errno))).") }
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        }
        if silent {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        if let output { posix_spawn_file_actions_adddup2(&actions, output, 1) }
        if newSession {
            // A daemon holds nothing of its parent's: no terminal, no descriptor past the three
            // standard ones (a pipe it kept open would hang whoever waits for its end), cwd "/".
            if input == nil { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
            cposix_spawn_detach(&actions)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGTSTP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        // POSIX_SPAWN_SETSID (glibc's 0x80) is not exported to Swift.
        let setsid: Int32 = newSession ? 0x80 : 0
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | setsid))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let code = environment.withEnvp { envp in posix_spawn(&pid, executable, &actions, &attributes, argv, envp) }
        if input != nil { close(fds[0]) }
        guard code == 0 else {
            if input != nil { close(fds[1]) }
            throw LaunchError("Cannot run \(executable): \(String(cString: strerror(code))).", status: code == ENOENT ? 127 : 126)
        }
        if let input {
            // A child that exits before reading everything must not kill this process.
            let previous = signal(SIGPIPE, SIG_IGN)
            defer { signal(SIGPIPE, previous) }
            input.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = write(fds[1], buffer.baseAddress! + offset, buffer.count - offset)
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { break }
                    offset += n
                }
            }
            close(fds[1])
        }
        return ChildProcess(pid: pid)
    }

    /// Waits for the child; its exit status, or 128 plus the signal that ended it. With
    /// `followingStops`, a child stopped from the terminal (Ctrl-Z) stops this process too, so
    /// the shell gets the terminal back; when this process is continued, so is the child.
    public func wait(followingStops: Bool = false) -> Int32 {
        var status: Int32 = 0
        while true {
            if waitpid(pid, &status, followingStops ? WUNTRACED : 0) < 0 {
                guard errno == EINTR else { return 1 }
                continue
            }
            // WIFSTOPPED: the low byte is 0x7F.
            guard status & 0xFF == 0x7F else { break }
            kill(getpid(), SIGSTOP)
            kill(pid, SIGCONT)
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Waits for the child for at most `timeoutSeconds`: its exit status as `wait` gives it, or
    /// nil when it had not ended in time (it is then killed and reaped).
    public func wait(timeoutSeconds: Int) -> Int32? {
        var status: Int32 = 0
        for _ in 0..<(timeoutSeconds * 20) {
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid {
                let signal = status & 0x7F
                return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
            }
            if ended < 0 && errno != EINTR { return nil }
            usleep(50_000)
        }
        kill(pid, SIGKILL)
        _ = wait()
        return nil
    }

    public func terminate() { kill(pid, SIGTERM) }
}
