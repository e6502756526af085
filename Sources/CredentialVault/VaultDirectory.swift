import Glibc
import SystemErrors

/// The files of a vault directory and how the default directory is found.
public struct VaultDirectory: Sendable, Equatable {
    public let path: String

    /// `path` made absolute against the current directory, so messages and status name the real place.
    public init(path: String) {
        if path.hasPrefix("/") {
            self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        } else {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let cwd = getcwd(&buffer, buffer.count).map { _ in String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) } ?? "."
            let relative = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
            self.path = (cwd == "/" ? "" : cwd) + "/" + (relative.hasSuffix("/") ? String(relative.dropLast()) : relative)
        }
    }

    public var configPath: String { path + "/config.sqlite" }
    public var secretsPath: String { path + "/secrets.sqlite" }

    /// `$XDG_DATA_HOME/credctl`, else `~/.local/share/credctl`.
    public static func defaultPath(environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/credctl" }
        let home = environment["HOME"] ?? "/"
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/share/credctl"
    }

    /// Where a key file is looked for when none is named: `$XDG_CONFIG_HOME/credctl/key`, else
    /// `~/.config/credctl/key` (`init --key-file` with no path creates it there).
    public static func defaultKeyFilePath(environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/credctl/key" }
        let home = environment["HOME"] ?? "/"
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.config/credctl/key"
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Creates the directory (and missing parents) with mode 0700, and narrows an existing one
    /// to 0700: it holds sealed bodies and metadata about them.
    func prepare() throws {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0 && errno != EEXIST {
                throw VaultError(.storage, "Unable to create the vault directory \(partial): \(SystemError.describe(errno)).")
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw VaultError(.storage, "\(path) is not a directory.")
        }
        if info.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw VaultError(.storage, "Unable to restrict the vault directory \(path) to mode 0700: \(SystemError.describe(errno)).")
        }
    }

    /// Whether another process holds the directory's exclusive lock right now: on an existing
    /// vault, that is a sync in progress.
    func isLockedByAnother() -> Bool {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        flock(fd, LOCK_UN)
        return false
    }

    /// Runs `body` holding an exclusive `flock` on the directory, so two processes creating a
    /// vault in the same place cannot interleave (and one cannot discard the other's files).
    func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw VaultError(.storage, "Unable to open the vault directory \(path): \(SystemError.describe(errno)).") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw VaultError(.storage, "Unable to lock the vault directory \(path): \(SystemError.describe(errno)).") }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
