import Glibc
import Sodium
import SystemErrors

/// Reads small key files straight into guarded memory with `open`, `fstat` and `read`, so the
/// bytes never pass through `Data`, `String` or `[UInt8]`.
enum KeyFileReader {
    /// Key files are a few KiB at most; anything larger is not a key.
    static let sizeLimit = 1 << 20

    /// The exact bytes of the regular file at `path`, or nil when there is no such file.
    /// `role` names the file in messages ("private key", "public key").
    static func read(_ path: String, role: String) throws -> SecretBytes? {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below anyway.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return nil }
            throw failure("open", code, role: role, path: path)
        }
        defer { close(descriptor) }

        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("fstat", errno, role: role, path: path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw VaultError(.invalidInput, "Unable to read \(role) '\(path)': it is not a regular file.",
                             hint: "Give the path of the key file itself.")
        }
        guard info.st_size <= sizeLimit else {
            throw VaultError(.invalidInput, "Unable to read \(role) '\(path)': it is larger than 1 MiB, so it is not a key file.",
                             hint: "Give the path of the key file itself.")
        }

        // One spare byte detects a file that grew since fstat.
        let size = Int(info.st_size)
        let buffer = try SecretBytes(zeroedCount: size + 1)
        var total = 0
        try buffer.withUnsafeMutableBytes { out in
            while total < out.count {
                let count = Glibc.read(descriptor, out.baseAddress! + total, out.count - total)
                if count < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    throw failure("read", code, role: role, path: path)
                }
                if count == 0 { break }
                total += count
            }
        }
        guard total <= size else {
            throw VaultError(.storage, "Unable to read \(role) '\(path)': the file changed while it was being read.",
                             hint: "Try again.")
        }
        return try buffer.slice(0..<total)
    }

    /// The one place a failed system call becomes an error, naming the call and `errno`.
    private static func failure(_ function: String, _ code: Int32, role: String, path: String) -> VaultError {
        VaultError(.storage, "Unable to read \(role) '\(path)': \(function) failed: \(SystemError.describe(code)).")
    }
}
