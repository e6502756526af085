import Glibc
import Sodium

/// Key files: the unlock method for servers and CI.
///
/// Any file of 16 bytes to 64 KiB can serve; its whole content is hashed into the wrapping key.
/// `create` writes 32 random bytes as one line of Base64, mode 0600, and never overwrites.
public enum KeyFile {
    static let minimumSize = 16
    static let maximumSize = 64 << 10

    /// Creates a new key file at `path` with mode 0600. Fails if anything exists there.
    public static func create(at path: String) throws {
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw SecretError(.storage, errno == EEXIST ? "The key file \(path) already exists." : "Unable to create the key file \(path) (errno \(errno)).")
        }
        var failed = false
        let text = Array((Base64.encode(Random.bytes(count: 32)) + "\n").utf8)
        text.withUnsafeBytes { bytes in
            failed = write(fd, bytes.baseAddress, bytes.count) != bytes.count || fsync(fd) != 0
        }
        close(fd)
        if failed {
            unlink(path)
            throw SecretError(.storage, "Unable to write the key file \(path).")
        }
    }

    /// Reads a key file, refusing one that another user owns or that other users can read or
    /// write. The checks are made on the opened file, so it cannot be swapped in between.
    public static func read(at path: String) throws -> SecretBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            // Without its key file the vault simply stays locked.
            throw SecretError(.locked, errno == ENOENT ? "The key file \(path) does not exist." : "The key file \(path) cannot be opened (errno \(errno)).",
                              hint: "Give the key file the vault was created with.")
        }
        var info = stat()
        let checked = fstat(fd, &info) == 0
        close(fd)
        guard checked, info.st_mode & S_IFMT == S_IFREG else { throw SecretError(.invalid, "The key file \(path) is not a regular file.") }
        guard info.st_uid == getuid() else {
            throw SecretError(.invalid, "The key file \(path) belongs to another user.", hint: "Use a key file you own (mode 600).")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw SecretError(.invalid, "The key file \(path) is accessible by other users (mode \(String(info.st_mode & 0o777, radix: 8))).",
                              hint: "Run: chmod 600 \(path)")
        }
        let contents: SecretBytes
        do {
            contents = try SecretBytes.read(contentsOfFile: path, limit: maximumSize)
        } catch let error as SodiumError {
            throw SecretError(.invalid, error.message)
        }
        guard contents.count >= minimumSize else {
            throw SecretError(.invalid, "The key file \(path) is too short to be a key (\(contents.count) bytes; at least \(minimumSize) needed).")
        }
        return contents
    }
}
