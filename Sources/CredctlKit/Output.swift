import CredentialVault
import Glibc

/// Writes to the process's standard streams with `write(2)`, so secrets go from guarded memory
/// to the descriptor without an intermediate copy.
enum Output {
    static func out(_ text: String) { write(fd: 1, text) }
    static func err(_ text: String) { write(fd: 2, text) }

    static func json(_ value: JSONValue) { out(value.rendered() + "\n") }

    /// Writes the secret's bytes exactly, with nothing added.
    static func secret(_ secret: SecretBytes) {
        secret.withUnsafeBytes { writeAll(fd: 1, $0) }
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
            if n <= 0 { return }
            offset += n
        }
    }
}
