import Glibc
import Sodium

extension SecretBytes {
    /// Writes the bytes to a new file of mode 0600 at `path` (never over an existing one), as
    /// credctl wants a key, passphrase or recovery key file: its own, readable by no one else.
    func write(toNewPrivateFile path: String) throws {
        let fd = open(path, O_CREAT | O_WRONLY | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BenchError("Unable to create \(path) (errno \(errno)).") }
        defer { close(fd) }
        guard withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == count else { throw BenchError("Unable to write \(path).") }
    }
}
