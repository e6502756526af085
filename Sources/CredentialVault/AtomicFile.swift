import Glibc
import Sodium
import SystemErrors

/// Replaces a small file atomically with mode 0600: temp file, fsync, rename.
/// (`FileManager.replaceItem` destroys data on this platform; `rename(2)` does not.)
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        try bytes.withUnsafeBytes { try write($0, to: path) }
    }

    /// Writes a secret (a key file) straight from its guarded memory.
    static func write(_ secret: SecretBytes, to path: String) throws {
        try secret.withUnsafeBytes { try write($0, to: path) }
    }

    static func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError(.storage, "Unable to write \(path): \(SystemError.describe(errno)).") }
        let written = Glibc.write(fd, bytes.baseAddress, bytes.count)
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw VaultError(.storage, "Unable to write \(path): \(SystemError.describe(errno)).")
        }
    }
}
