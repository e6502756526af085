import CPosix
import Glibc
import SystemErrors

/// Keeps this process's memory — unlocked keys, decrypted secrets — out of reach of anything
/// but itself: no core file, and no reading of `/proc/PID/mem` or `environ`, no ptrace attach by
/// other processes of the same user. Applied before any secret is read.
///
/// Both settings are inherited by threads. `execve` resets the dumpable flag (a program that
/// replaces credctl, `run`'s COMMAND, is dumpable again), while the zero core limit carries
/// over to children, which hold the secrets they were given.
public enum ProcessHardening {
    /// The corresponding C calls are `prctl(PR_SET_DUMPABLE, 0)` and `setrlimit(RLIMIT_CORE)`.
    public static func apply() throws {
        guard cposix_disable_core_files() == 0 else {
            throw LaunchError("Cannot set the core file size limit to zero (\(SystemError.describe(errno))); credctl does not run without it.")
        }
        guard cposix_set_nondumpable() == 0 else {
            throw LaunchError("Cannot make credctl non-dumpable (\(SystemError.describe(errno))); credctl does not run without it.")
        }
    }
}
