import Glibc
import Sodium

/// A remote kept in a local directory — a plain folder, a network mount, or a folder that
/// Syncthing or Nextcloud keeps in sync between machines.
///
/// Objects are files named by their object names below `root`. Publishing writes a hidden
/// temporary file, syncs it, and hard-links it into place (`link(2)` fails with `EEXIST`
/// instead of replacing), so a name is created at most once and never overwritten, and readers
/// on this machine never see a partial object. Files that sync tools are still writing in place
/// may still be seen partial; the caller retries those later. Names follow `ObjectName`.
public final class DirectoryRemote: Remote {
    /// Larger objects are refused on read: no batch or `vault.json` comes near this size.
    public static let maximumObjectSize = 64 * 1024 * 1024

    /// The directory holding the objects. It need not exist yet; operations then throw
    /// `.unreachable`.
    public let root: String

    public var location: String { root }

    public init(root: String) {
        self.root = root
    }

    public func list(prefix: String) throws -> [String] {
        let start = try ObjectName.directoryPart(ofPrefix: prefix)
        try checkRoot()
        // Below the start the walk itself passes links by.
        try refuseLinkedDirectories(start, action: "list objects under '\(prefix)'")
        do {
            let names = try DirectoryWalk(root: root, prefix: prefix).names(under: start)
            return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        } catch let error as SystemCallError {
            throw error.remoteError("list objects under '\(prefix)'", in: root)
        }
    }

    /// From the listing and one `stat` per object: no object is read.
    public func usage() throws -> RemoteUsage {
        let names = try list(prefix: "")
        var bytes: Int64 = 0
        for name in names {
            var info = stat()
            // A sparse file can claim any size: the total saturates instead of overflowing.
            if lstat(path(of: name), &info) == 0 { bytes = bytes.addingReportingOverflow(Int64(info.st_size)).overflow ? .max : bytes + Int64(info.st_size) }
        }
        return RemoteUsage(objects: names.count, bytes: bytes)
    }

    /// The file's device, inode, size and modification time: a sync tool replacing or rewriting
    /// it changes at least one.
    public func fingerprint(_ name: String) throws -> String? {
        try ObjectName.validate(name)
        try refuseLinkedDirectories(ObjectName.directoryPart(of: name), action: "look at object '\(name)'")
        var info = stat()
        guard lstat(path(of: name), &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    public func get(_ name: String) throws -> [UInt8]? {
        try ObjectName.validate(name)
        try checkRoot()
        let action = "read object '\(name)'"
        try refuseLinkedDirectories(ObjectName.directoryPart(of: name), action: action)
        let file: FileDescriptor
        do {
            // O_NONBLOCK: a FIFO planted under an object name must not hang the reader.
            file = try FileDescriptor(opening: path(of: name), flags: O_RDONLY | O_NONBLOCK | O_NOFOLLOW)
        } catch let error as SystemCallError where error.errno == ENOENT || error.errno == ENOTDIR {
            return nil
        } catch let error as SystemCallError where error.errno == ELOOP {
            throw ReplicationError(.io, "Unable to \(action) in \(root): it is a symbolic link, not a regular file.")
        } catch let error as SystemCallError {
            throw error.remoteError(action, in: root)
        }
        do {
            guard try file.isRegularFile else {
                throw ReplicationError(.io, "Unable to \(action) in \(root): it is not a regular file.")
            }
            guard let bytes = try file.readAll(limit: Self.maximumObjectSize) else {
                throw ReplicationError(.tooLarge, "Unable to \(action) in \(root): it is larger than 64 MiB.")
            }
            return bytes
        } catch let error as SystemCallError {
            throw error.remoteError(action, in: root)
        }
    }

    public func createOnly(_ name: String, bytes: [UInt8]) throws -> CreateOutcome {
        try ObjectName.validate(name)
        try checkRoot()
        let action = "publish object '\(name)'"
        let directory = path(of: ObjectName.directoryPart(of: name))
        let target = path(of: name)
        do {
            // Before: no directory is made inside a link's target; after: none became a link.
            try refuseLinkedDirectories(ObjectName.directoryPart(of: name), action: action)
            try makeParentDirectories(of: name)
            try refuseLinkedDirectories(ObjectName.directoryPart(of: name), action: action)
            let temporary = try writeTemporaryFile(bytes, in: directory)
            let linked = Result { try SystemCallError.retrying("link") { link(temporary, target) } }
            // The temporary name goes whatever happened, before the directory sync below.
            unlink(temporary)
            let outcome: CreateOutcome
            switch linked {
            case .success:
                outcome = .created
            case .failure(let error as SystemCallError) where error.errno == EEXIST:
                guard try holds(bytes, at: target, action: action) else {
                    throw ReplicationError(.nameConflict, """
                        Unable to \(action) in \(root): another writer (for example a copied vault \
                        directory) is writing under this device's name; nothing was overwritten.
                        """)
                }
                // Synced again: the earlier attempt may have crashed before its directory sync.
                outcome = .alreadyPresent
            case .failure(let error as SystemCallError) where error.errno == EPERM || error.errno == EOPNOTSUPP:
                throw ReplicationError(.io, """
                    Unable to \(action) in \(root): the file system does not support hard links, \
                    which publishing needs (\(error.explanation)).
                    """)
            case .failure(let error):
                throw error
            }
            try syncDirectory(directory)
            return outcome
        } catch let error as SystemCallError {
            throw error.remoteError(action, in: root)
        }
    }

    /// No directory sync: a removal a crash undoes only brings back an object every device is
    /// done with (collection removes it again), and collecting hundreds of batches must not
    /// cost a sync each.
    public func delete(_ name: String) throws {
        try ObjectName.validate(name)
        try checkRoot()
        try refuseLinkedDirectories(ObjectName.directoryPart(of: name), action: "delete object '\(name)'")
        do {
            _ = try SystemCallError.retrying("unlink") { unlink(path(of: name)) }
        } catch let error as SystemCallError where error.errno == ENOENT || error.errno == ENOTDIR {
            return
        } catch let error as SystemCallError {
            throw error.remoteError("delete object '\(name)'", in: root)
        }
    }

    // MARK: - Helpers

    private func path(of name: String) -> String {
        name.isEmpty ? root : root + "/" + name
    }

    /// Throws `.unreachable` unless the root is an existing directory.
    private func checkRoot() throws {
        var info = stat()
        let result = stat(root, &info)
        if result != 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR || root.isEmpty {
                throw ReplicationError(.unreachable, "The remote directory \(root) is missing or not mounted.")
            }
            let failure = SystemCallError(function: "stat", errno: code)
            throw ReplicationError(.unreachable, "The remote directory \(root) cannot be reached: \(failure.explanation).")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw ReplicationError(.unreachable, "The remote directory \(root) is not a directory.")
        }
    }

    /// Refuses to go through a directory inside the remote that is a symbolic link: Syncthing
    /// syncs links, so a peer could otherwise lead this device's reads, writes and deletes
    /// anywhere on this machine. (The root itself may be a link: the user chose it.) A missing
    /// directory is no link; the operation then finds nothing, or creates a real directory.
    private func refuseLinkedDirectories(_ directoryPart: String, action: String) throws {
        var path = root, relative = ""
        for component in directoryPart.utf8.split(separator: UInt8(ascii: "/")) {
            let name = String(decoding: component, as: UTF8.self)
            relative += relative.isEmpty ? name : "/" + name
            path += "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { return }
            guard (info.st_mode & S_IFMT) != S_IFLNK else {
                throw ReplicationError(.io, "Unable to \(action) in \(root): '\(relative)' is a symbolic link, and directories inside a remote are never followed.")
            }
        }
    }

    /// Creates the missing directories above `name` (mode 0700), syncing each new directory's
    /// parent so the new entry survives a crash.
    private func makeParentDirectories(of name: String) throws {
        // Split on bytes, as the file system does: a '/' followed by a combining mark is one
        // Character but still two path components.
        let components = ObjectName.directoryPart(of: name).utf8.split(separator: UInt8(ascii: "/"))
        var parent = root
        for component in components {
            let directory = parent + "/" + String(decoding: component, as: UTF8.self)
            do {
                _ = try SystemCallError.retrying("mkdir") { mkdir(directory, 0o700) }
                try syncDirectory(parent)
            } catch let error as SystemCallError where error.errno == EEXIST {
                // Already there (maybe created by a racing writer); a non-directory in the
                // way makes the temporary file's `open` fail with ENOTDIR.
            }
            parent = directory
        }
    }

    /// Writes `bytes` to a new hidden file in `directory` (mode 0600, never an existing file)
    /// and syncs it. Returns its path; removes it again if anything fails.
    private func writeTemporaryFile(_ bytes: [UInt8], in directory: String) throws -> String {
        while true {
            let hex = Random.bytes(count: 16).map { byte in
                let digits = Array("0123456789abcdef")
                return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0f)])
            }.joined()
            let temporary = directory + "/.credvault-" + hex + ".tmp"
            let file: FileDescriptor
            do {
                file = try FileDescriptor(opening: temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
            } catch let error as SystemCallError where error.errno == EEXIST {
                continue  // 128 random bits collided: try another name
            }
            do {
                try file.write(bytes)
                try file.sync()
            } catch {
                unlink(temporary)
                throw error
            }
            return temporary
        }
    }

    /// Whether the regular file at `path` holds exactly `bytes`.
    private func holds(_ bytes: [UInt8], at path: String, action: String) throws -> Bool {
        let file = try FileDescriptor(opening: path, flags: O_RDONLY | O_NONBLOCK | O_NOFOLLOW)
        guard try file.isRegularFile else {
            throw ReplicationError(.io, "Unable to \(action) in \(root): the name is taken by something that is not a regular file.")
        }
        return try file.readAll(limit: bytes.count) == bytes
    }

    /// Syncs a directory's entries. File systems that cannot sync directories (some FUSE and
    /// SMB mounts answer EINVAL) are accepted as they are: there is nothing more to do there.
    private func syncDirectory(_ path: String) throws {
        do {
            try FileDescriptor.directory(path).sync()
        } catch let error as SystemCallError where error.errno == EINVAL || error.errno == EOPNOTSUPP {
            return
        }
    }
}
