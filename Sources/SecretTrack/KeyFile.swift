import Glibc
import Replication
import Sodium
import SystemErrors

/// Key files: the unlock method for servers and CI.
///
/// Any file of 16 bytes to 64 KiB can serve; its whole content is hashed into the wrapping key.
/// `create` writes 32 random bytes as one line of Base64, mode 0600, and never overwrites.
public enum KeyFile {
    static let minimumSize = 16
    static let maximumSize = 64 << 10

    /// Creates a new key file at `path` with mode 0600. Fails if anything exists there.
    ///
    /// The key is written and synced under a temporary name beside `path`, then published with
    /// `link(2)`, which fails if anything is there: a process killed at any instant leaves no key
    /// file or a whole one, never an empty one that the next `init` would refuse. On a file
    /// system without hard links the file is created in place, as before.
    public static func create(at path: String) throws {
        let temporary = path + ".partial-" + Random.bytes(count: 6).map { String($0, radix: 16) }.joined()
        let text = Array((Base64.encode(Random.bytes(count: 32)) + "\n").utf8)
        guard try write(text, to: temporary) else { return try createInPlace(at: path, text) }
        defer { unlink(temporary) }
        beforePublishing?(temporary)
        guard link(temporary, path) == 0 else {
            let code = errno
            if code == EPERM || code == EOPNOTSUPP || code == EXDEV { return try createInPlace(at: path, text) }
            throw SecretError(.storage, code == EEXIST ? "The key file \(path) already exists." : "Unable to create the key file \(path): \(SystemError.describe(code)).")
        }
        syncDirectory(of: path)
    }

    /// Writes `text` to a new file at `path` (mode 0600) and syncs it; false when no file can be
    /// made there at all.
    private static func write(_ text: [UInt8], to path: String) throws -> Bool {
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { return false }
            throw SecretError(.storage, "Unable to create the key file \(path): \(SystemError.describe(errno)).")
        }
        let written = text.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) == $0.count && fsync(fd) == 0 }
        close(fd)
        guard written else {
            unlink(path)
            throw SecretError(.storage, "Unable to write the key file \(path).")
        }
        return true
    }

    private static func createInPlace(at path: String, _ text: [UInt8]) throws {
        guard try write(text, to: path) else { throw SecretError(.storage, "The key file \(path) already exists.") }
        syncDirectory(of: path)
    }

    /// Makes the new name durable: best effort, as a directory that cannot be opened still holds it.
    private static func syncDirectory(of path: String) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        try? FileDescriptor.directory(directory.isEmpty ? "/" : directory).sync()
    }

    /// Called with the temporary file once it is written and synced, before it is published;
    /// tests look at both names there.
    nonisolated(unsafe) static var beforePublishing: ((String) -> Void)?

    /// Called between the checks and the read, with the path; tests replace the file there.
    nonisolated(unsafe) static var afterChecks: ((String) -> Void)?

    /// Reads a key file, refusing a symbolic link, a file that another user owns, or one that
    /// other users can read or write. The checks are made on the opened descriptor and the key
    /// is read through that same descriptor: a file swapped in after the checks is never read.
    public static func read(at path: String) throws -> SecretBytes {
        // O_NONBLOCK: a FIFO put in its place must not hang the open (it is refused below).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            // A link could lead to a file whose mode says nothing about who can swap it.
            if code == ELOOP {
                throw SecretError(.invalid, "The key file \(path) is a symbolic link.", hint: "Give the path of the key file itself.")
            }
            // Without its key file the vault simply stays locked.
            throw SecretError(.locked, code == ENOENT ? "The key file \(path) does not exist." : "The key file \(path) cannot be opened: \(SystemError.describe(code)).",
                              hint: "Give the key file the vault was created with.")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw SecretError(.invalid, "The key file \(path) is not a regular file.") }
        guard info.st_uid == getuid() else {
            throw SecretError(.invalid, "The key file \(path) belongs to another user.", hint: "Use a key file you own (mode 600).")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw SecretError(.invalid, "The key file \(path) is accessible by other users (mode \(String(info.st_mode & 0o777, radix: 8))).",
                              hint: "Run: chmod 600 \(path)")
        }
        afterChecks?(path)
        let contents: SecretBytes
        do {
            contents = try SecretBytes.read(descriptor: fd, path: path, limit: maximumSize)
        } catch let error as SodiumError {
            throw SecretError(.invalid, error.message)
        }
        guard contents.count >= minimumSize else {
            throw SecretError(.invalid, "The key file \(path) is too short to be a key (\(contents.count) bytes; at least \(minimumSize) needed).")
        }
        return contents
    }
}
