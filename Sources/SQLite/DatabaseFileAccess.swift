import Glibc
import SystemErrors

/// Makes a database file ready to be opened, and says how: created with mode 0600 if absent,
/// narrowed back to 0600 if someone widened it, and whether this process may write it.
///
/// This never opens the database file itself. POSIX record locks belong to the process, and
/// closing *any* descriptor of a file drops every lock the process holds on it — including those
/// of SQLite connections other threads have open on the same database (the agent's vault and its
/// sync each have one). Without their locks, another process can checkpoint or reset the
/// write-ahead log under them: a corrupt database. A new file is made under a temporary name and
/// linked into place only once its descriptor is closed.
struct DatabaseFileAccess {
    let writable: Bool
    /// On a read-only mount SQLite cannot even make the WAL index, so it opens the file immutable.
    let onReadOnlyFileSystem: Bool

    /// `creating`: make the file when it is missing; otherwise a missing file is an error.
    init(path: String, creating: Bool = true) throws {
        var info = stat()
        if stat(path, &info) != 0 {
            guard errno == ENOENT, creating else { throw Self.failure(errno) }
            try Self.createPrivately(path)
            guard stat(path, &info) == 0 else { throw Self.failure(errno) }
        }
        // An existing file made wider by someone else is narrowed back: it is ours.
        if info.st_mode & 0o077 != 0 { chmod(path, 0o600) }
        if Glibc.access(path, W_OK) == 0 {
            writable = true
            onReadOnlyFileSystem = false
            return
        }
        let code = errno
        guard [EROFS, EACCES, EPERM].contains(code), Glibc.access(path, R_OK) == 0 else { throw Self.failure(code) }
        writable = false
        onReadOnlyFileSystem = code == EROFS
    }

    /// Creates an empty file at `path` with mode 0600, unless one appears there first.
    private static func createPrivately(_ path: String) throws {
        var template = Array((path + ".new-XXXXXX").utf8CString)
        // mkstemp makes it 0600; it is closed at once, so no child can inherit it.
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure(errno) }
        let temporary = String(cString: template)
        close(fd)
        defer { unlink(temporary) }
        // link, not rename: a database another process created meanwhile is never replaced.
        guard link(temporary, path) == 0 || errno == EEXIST else { throw failure(errno) }
    }

    private static func failure(_ code: Int32) -> SQLiteError {
        SQLiteError(code: .cannotOpen, resultCode: 0, operation: "create", message: "cannot create database file: \(SystemError.describe(code))")
    }
}
