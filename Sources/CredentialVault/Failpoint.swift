import Glibc

/// Named points inside multi-step operations where a crash test can kill the process.
///
/// `CREDVAULT_FAILPOINT=<name>` in the environment makes the process send itself SIGKILL when
/// it reaches that point — the same as a power cut or `kill -9` there. Tests use it to prove
/// that every intermediate state is safe. Unset, a hit costs one comparison.
enum Failpoint {
    private static let armed: String? = getenv("CREDVAULT_FAILPOINT").map { String(cString: $0) }

    static func hit(_ name: StaticString) {
        guard let armed, armed == name.description else { return }
        kill(getpid(), SIGKILL)
    }
}
