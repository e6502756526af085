import CredentialVault
import Glibc

/// Writes to the process's standard streams with `write(2)`, so secrets go from guarded memory
/// to the descriptor without an intermediate copy.
enum Output {
    /// Set when standard output could not take everything written (a full disk, a closed pipe):
    /// the command then fails instead of reporting success with truncated output.
    nonisolated(unsafe) static var standardOutputFailed: Int32?

    /// Text for the user: whatever a stored or received value holds, no control character but
    /// line feed and tab reaches the terminal (see `TerminalText`).
    static func out(_ text: String) { write(fd: 1, TerminalText.inert(text, keepingLines: true)) }
    static func err(_ text: String) { write(fd: 2, TerminalText.inert(text, keepingLines: true)) }

    /// Standard error exactly as given: only for credctl's own control sequences (the progress
    /// line's carriage return and erase), never for a value.
    static func errControl(_ text: String) { write(fd: 2, text) }

    static func json(_ value: JSONValue) { out(value.rendered() + "\n") }

    /// Writes the secret's bytes exactly, with nothing added.
    static func secret(_ secret: SecretBytes) {
        secret.withUnsafeBytes { writeAll(fd: 1, $0) }
    }

    /// The same on standard error (standard output carries a JSON document).
    static func secretToStandardError(_ secret: SecretBytes) {
        secret.withUnsafeBytes { writeAll(fd: 2, $0) }
    }

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    private static func write(fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { writeAll(fd: fd, UnsafeRawBufferPointer($0)) }
    }

    private static func writeAll(fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if fd == 1 && standardOutputFailed == nil { standardOutputFailed = n < 0 ? errno : EIO }
                return
            }
            offset += n
        }
    }

    /// Makes sure descriptors 0, 1 and 2 are open (on /dev/null if they were closed), so no file
    /// this process opens — a key file, a database — can land on one and receive its output.
    static func secureStandardDescriptors() {
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDWR)
            if opened >= 0 && opened != fd {
                dup2(opened, fd)
                close(opened)
            }
        }
    }
}
