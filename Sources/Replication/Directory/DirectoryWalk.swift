import Glibc

/// Finds the object names under a listing prefix by walking the directory tree.
///
/// Only regular files whose relative name is a valid object name are found; symbolic links
/// are neither followed nor listed. Hidden entries (`.stfolder`, `.stversions`, Syncthing's
/// `.syncthing.*.tmp`, our own `.credvault-*.tmp`) are skipped whole, directories included,
/// and so are files ending in `.tmp` or `.part` (`~syncthing~*.tmp`, partial downloads).
/// Conflict copies made by sync tools are ordinary names here; the caller judges them.
struct DirectoryWalk {
    let root: String
    let prefix: [UInt8]

    init(root: String, prefix: String) {
        self.root = root
        self.prefix = Array(prefix.utf8)
    }

    /// The matching names under the directory `start` (relative to the root, empty for the
    /// root itself), unsorted. A missing directory holds nothing.
    func names(under start: String) throws -> [String] {
        var names: [String] = []
        try walk(start, into: &names)
        return names
    }

    private func walk(_ relative: String, into names: inout [String]) throws {
        let path = relative.isEmpty ? root : root + "/" + relative
        guard let directory = opendir(path) else {
            let code = errno
            // Gone, or never there: nothing to list. (The root itself was checked before.)
            if code == ENOENT || code == ENOTDIR { return }
            throw SystemCallError(function: "opendir", errno: code)
        }
        defer { closedir(directory) }
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                let code = errno
                if code != 0 { throw SystemCallError(function: "readdir", errno: code) }
                return
            }
            // Names that are not UTF-8 cannot be object names; "." and ".." start with '.'.
            guard let name = Self.name(of: entry), name.utf8.first != UInt8(ascii: ".") else { continue }
            let child = relative.isEmpty ? name : relative + "/" + name
            guard child.utf8.count <= ObjectName.maximumLength else { continue }
            switch try kind(of: entry, named: name, in: directory) {
            case DT_DIR:
                if couldContainMatches(child) { try walk(child, into: &names) }
            case DT_REG:
                if child.utf8.starts(with: prefix), ObjectName.isValid(child) { names.append(child) }
            default:
                continue
            }
        }
    }

    /// Whether names under the directory `child` can start with the prefix: the directory is
    /// inside the prefix, or the prefix continues into it.
    private func couldContainMatches(_ child: String) -> Bool {
        let directory = Array((child + "/").utf8)
        return directory.starts(with: prefix) || prefix.starts(with: directory)
    }

    private static func name(of entry: UnsafeMutablePointer<dirent>) -> String? {
        withUnsafePointer(to: &entry.pointee.d_name) { tuple in
            tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                String(validatingCString: $0)
            }
        }
    }

    /// The entry's type (`DT_DIR`, `DT_REG`, …), asking the file system without following
    /// links when `readdir` does not say (`DT_UNKNOWN` on some network and FUSE file systems).
    private func kind(of entry: UnsafeMutablePointer<dirent>, named name: String, in directory: OpaquePointer) throws -> Int {
        let reported = Int(entry.pointee.d_type)
        if reported != Int(DT_UNKNOWN) { return reported }
        var info = stat()
        do {
            _ = try SystemCallError.retrying("fstatat") {
                fstatat(dirfd(directory), name, &info, AT_SYMLINK_NOFOLLOW)
            }
        } catch let error as SystemCallError where error.errno == ENOENT {
            return Int(DT_UNKNOWN)  // removed since readdir saw it
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return Int(DT_DIR)
        case S_IFREG: return Int(DT_REG)
        default: return Int(DT_UNKNOWN)
        }
    }
}
