import Glibc

/// An open file descriptor with exactly one owner: opened in `init`, closed in `deinit`.
///
/// Closing ignores errors: every write this backend cares about is followed by `sync()`,
/// which reports write-back failures before the descriptor is closed.
package final class FileDescriptor {
    let rawValue: Int32

    /// Opens `path` (`O_CLOEXEC` is always added). The corresponding C function is `open`.
    init(opening path: String, flags: Int32, mode: mode_t = 0) throws {
        rawValue = try SystemCallError.retrying("open") { open(path, flags | O_CLOEXEC, mode) }
    }

    /// Opens a directory for `fsync`.
    package static func directory(_ path: String) throws -> FileDescriptor {
        try FileDescriptor(opening: path, flags: O_RDONLY | O_DIRECTORY)
    }

    deinit { close(rawValue) }

    /// The corresponding C function is `fstat`.
    func status() throws -> stat {
        var info = stat()
        _ = try SystemCallError.retrying("fstat") { fstat(rawValue, &info) }
        return info
    }

    var isRegularFile: Bool {
        get throws { (try status().st_mode & S_IFMT) == S_IFREG }
    }

    /// Flushes the file (or directory entries) to stable storage. The corresponding C function
    /// is `fsync`.
    package func sync() throws {
        _ = try SystemCallError.retrying("fsync") { fsync(rawValue) }
    }

    /// Writes all of `bytes`, continuing after short writes and `EINTR`.
    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var written = 0
            while written < buffer.count {
                let count = try SystemCallError.retrying("write") {
                    Glibc.write(rawValue, base + written, buffer.count - written)
                }
                // write(2) returns 0 only for a zero count; never spin on it.
                if count == 0 { throw SystemCallError(function: "write", errno: EIO) }
                written += count
            }
        }
    }

    /// Reads to the end of the file, or returns nil as soon as more than `limit` bytes arrive.
    /// A file that is still being written is returned as far as it goes.
    func readAll(limit: Int) throws -> [UInt8]? {
        let expected = Int(try status().st_size)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(max(expected, 0), limit) + 1)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                try SystemCallError.retrying("read") { read(rawValue, buffer.baseAddress, buffer.count) }
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { return nil }
        }
    }
}
