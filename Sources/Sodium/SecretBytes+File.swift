import Glibc
import SystemErrors

extension SecretBytes {
    /// Reads a whole regular file straight into guarded memory, refusing files larger than
    /// `limit` bytes. Throws `.invalidArgument` for anything but a readable regular file; the
    /// message names the path, never the contents.
    public static func read(contentsOfFile path: String, limit: Int) throws -> SecretBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = errno == ENOENT ? "does not exist" : "cannot be read: \(SystemError.describe(errno))"
            throw SodiumError(.invalidArgument, "The file \(path) \(reason).")
        }
        defer { close(fd) }
        return try read(descriptor: fd, path: path, limit: limit)
    }

    /// Reads the rest of the regular file open on `fd` (which stays open) into guarded memory,
    /// refusing more than `limit` bytes. `path` is for messages only: the file is never opened
    /// again by name, so what a caller checked on `fd` is what is read.
    public static func read(descriptor fd: Int32, path: String, limit: Int) throws -> SecretBytes {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw SodiumError(.invalidArgument, "\(path) is not a regular file.")
        }
        guard info.st_size <= limit else {
            throw SodiumError(.invalidArgument, "The file \(path) is larger than \(limit) bytes.")
        }
        // Read one byte past the reported size to notice a file that grew meanwhile.
        let buffer = try SecretBytes(zeroedCount: Int(info.st_size) + 1)
        let total = try buffer.withUnsafeMutableBytes { out -> Int in
            var filled = 0
            while filled < out.count {
                let n = Glibc.read(fd, out.baseAddress! + filled, out.count - filled)
                if n == 0 { break }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SodiumError(.invalidArgument, "Reading \(path) failed: \(SystemError.describe(errno)).")
                }
                filled += n
            }
            return filled
        }
        guard total <= Int(info.st_size) else { throw SodiumError(.invalidArgument, "The file \(path) changed while it was read.") }
        return try buffer.slice(0..<total)
    }
}
