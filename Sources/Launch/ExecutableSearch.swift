import Glibc

/// Finds a program the way `execvp` would: a name with a slash is taken as a path, anything
/// else is looked up in each directory of `PATH` (the default path when `PATH` is unset).
public enum ExecutableSearch {
    static let defaultPath = "/usr/local/bin:/usr/bin:/bin"

    public static func find(_ name: String, path: String?) -> String? {
        guard !name.isEmpty else { return nil }
        if name.contains("/") { return isExecutableFile(name) ? name : nil }
        for directory in (path ?? defaultPath).split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
}
