import Glibc
import SystemErrors

/// Watches a directory remote with inotify, so the agent syncs soon after another device's
/// objects land in it (docs/agent.md, "Background sync"): the root and every directory below it,
/// and each directory made later (a new device's folder).
///
/// A change worth a sync is a name created, written or moved in. Not one:
/// - a removal: it brings nothing to fetch, and removing other devices' collected objects is
///   what this device's own sync does;
/// - a hidden name or one ending in `.tmp` or `.part`: a temporary file of `DirectoryRemote` or
///   of a sync tool (Syncthing, Nextcloud), whose rename into place is the change;
/// - anything in this device's own folders, `zones/<zone>/<device>/`, which only its own syncs
///   write (they are not even watched).
/// So the agent's own syncs never trigger another. Used by the sync thread only.
final class RemoteWatch {
    /// Why no watch could be had; `limitReached` when the kernel's inotify limits were the cause.
    struct Failure: Error {
        let message: String
        let limitReached: Bool
    }

    let root: String
    private let device: String
    private let fd: Int32
    /// Each watch's directory, relative to the root ("" for the root).
    private var directories: [Int32: String] = [:]
    /// Why this watch sees nothing any more (the root was removed, moved or unmounted, or a new
    /// directory exceeded the watch limit); nil while it watches.
    private(set) var ended: Failure?

    /// Arrivals, and what keeps the watches right: a directory moved away, the root going.
    /// Removals (`IN_DELETE`) are not asked for: they never trigger a sync.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MOVED_FROM | IN_MOVE_SELF | IN_DELETE_SELF)
    private static let arrivals = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
    /// Deeper than any object name of the remote goes (`zones/<zone>/<device>/<object>`), with room.
    private static let deepest = 8

    /// Watches `root` and the directories below it, on behalf of the device with id `device`.
    init(root: String, device: String) throws(Failure) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw Self.failure(errno, "set up inotify") }
        self.root = root
        self.device = device
        self.fd = fd
        // A throw from here releases the object, and deinit closes the descriptor.
        try watch("")
    }

    deinit { close(fd) }

    /// Waits up to `milliseconds` for events and reads all that are queued: whether one was a
    /// change worth a sync.
    func wait(milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, milliseconds) > 0 else { return false }
        var changed = false
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while ended == nil {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then `len` bytes of name.
            while offset + 16 <= count {
                let field = { (at: Int) in buffer[(offset + at)..<(offset + at + 4)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } }
                let length = Int(field(12))
                let name = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                changed = handle(Int32(bitPattern: field(0)), field(4), String(decoding: name, as: UTF8.self)) || changed
                offset += 16 + length
            }
        }
        return changed
    }

    /// Keeps the watches right for one event; whether it is a change worth a sync.
    private func handle(_ wd: Int32, _ mask: UInt32, _ name: String) -> Bool {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost, directories made meanwhile among them: watched again, and synced.
            do { try watch("") } catch { ended = error }
            return true
        }
        guard let directory = directories[wd] else { return false }
        if mask & UInt32(IN_IGNORED) != 0 { directories[wd] = nil }
        if directory.isEmpty && mask & UInt32(IN_IGNORED | IN_MOVE_SELF) != 0 {
            ended = Failure(message: "\(root) was removed, moved or unmounted", limitReached: false)
            return false
        }
        guard !name.isEmpty, !name.hasPrefix("."), !name.hasSuffix(".tmp"), !name.hasSuffix(".part") else { return false }
        let path = directory.isEmpty ? name : directory + "/" + name
        guard !isOwn(path) else { return false }
        if mask & UInt32(IN_ISDIR) != 0 {
            if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                do { try watch(path) } catch { if error.limitReached { ended = error } }
            } else if mask & UInt32(IN_MOVED_FROM) != 0 {
                // A directory moved away keeps its watches, wherever it went: dropped here.
                for (other, below) in directories where below == path || below.hasPrefix(path + "/") {
                    inotify_rm_watch(fd, other)
                    directories[other] = nil
                }
            }
        }
        return mask & Self.arrivals != 0
    }

    /// Watches the directory at `path` (relative to the root) and those below it, hidden ones
    /// and this device's own aside. Only the root must be there: a directory below that went
    /// meanwhile is no failure.
    private func watch(_ path: String) throws(Failure) {
        let full = path.isEmpty ? root : root + "/" + path
        // The root may be a link (a mount point's); below it, links are never followed, as the
        // remote never follows them either.
        let wd = inotify_add_watch(fd, full, Self.mask | UInt32(IN_ONLYDIR) | (path.isEmpty ? 0 : UInt32(IN_DONT_FOLLOW)))
        guard wd >= 0 else {
            // The root must be watched; a directory below that went meanwhile, or that is a
            // link or unreadable, is passed by — but the watch limit ends the watch.
            let code = errno
            if path.isEmpty || code == ENOSPC { throw Self.failure(code, "watch \(full)") }
            return
        }
        directories[wd] = path
        let depth = path.isEmpty ? 0 : path.split(separator: "/").count
        guard depth < Self.deepest, let listing = opendir(full) else { return }
        defer { closedir(listing) }
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let type = entry.pointee.d_type
            guard type == UInt8(DT_DIR) || type == UInt8(DT_UNKNOWN), !name.hasPrefix(".") else { continue }
            let below = path.isEmpty ? name : path + "/" + name
            if !isOwn(below) { try watch(below) }
        }
    }

    /// Whether `path` lies in this device's own folders, `zones/<zone>/<device>`.
    private func isOwn(_ path: String) -> Bool {
        let parts = path.split(separator: "/", maxSplits: 3)
        return parts.count >= 3 && parts[0] == "zones" && parts[2] == device
    }

    private static func failure(_ code: Int32, _ action: String) -> Failure {
        // ENOSPC: the watch limit (fs.inotify.max_user_watches); EMFILE: the instance limit.
        let limit = code == ENOSPC || code == EMFILE
        return Failure(message: limit ? "the inotify limits are reached (fs.inotify.max_user_watches, max_user_instances)"
                                      : "unable to \(action): \(SystemError.describe(code))", limitReached: limit)
    }
}
