import Glibc
import SystemErrors
import Sodium

/// Writes secret output to a file only the user can read: a new file is created 0600 (through
/// an unpredictable temporary name in the same directory, then renamed over the target, so a
/// reader never sees it half-written); an existing file is replaced only when its mode is not
/// wider than 0600, and keeps that mode. A symbolic link is not followed.
enum PrivateOutputFile {
    /// Standard output redirected to a regular file (`> file`) gets the same rule: a file others
    /// can read is refused before anything is written.
    static func checkStandardOutput() throws {
        var info = stat()
        guard fstat(1, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o177 != 0 else { return }
        throw CLIError.input("Standard output is a file with mode \(String(info.st_mode & 0o777, radix: 8)), wider than 0600; refusing to write secrets to it.",
                             hint: "Use -o FILE (created 0600), or chmod 600 the file first.")
    }

    /// `secret: false` (output with no secret in it) replaces an existing file whatever its mode,
    /// and keeps that mode. With `replace: false`, an existing file is never replaced (even one
    /// created while this runs). An existing file keeps its owner and group.
    static func write(_ contents: SecretBytes, to path: String, secret: Bool = true, replace: Bool = true) throws {
        var mode: mode_t = 0o600
        var owner: (uid_t, gid_t)?
        var info = stat()
        if lstat(path, &info) == 0 {
            guard replace else { throw CLIError.input("\(path) exists; refusing to replace it.", hint: "Choose another file, or add --force.") }
            owner = (info.st_uid, info.st_gid)
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw CLIError.input("\(path) is not a regular file; refusing to write secrets to it.")
            }
            guard !secret || info.st_mode & 0o177 == 0 else {
                throw CLIError.input("\(path) has mode \(String(info.st_mode & 0o777, radix: 8)), wider than 0600; refusing to write secrets to it.",
                                     hint: "chmod 600 \(path), or write to a new file.")
            }
            mode = secret ? info.st_mode & 0o600 : info.st_mode & 0o777
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(directory.isEmpty ? "/" : directory)/.\(name).XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw CLIError(message: "Unable to create a file beside \(path) (\(SystemError.describe(errno))).", hint: nil, status: ExitStatus.failure) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var written = 0
        contents.withUnsafeBytes { buffer in
            while written < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 { if errno == EINTR { continue }; break }
                written += n
            }
        }
        let owned = owner.map { fchown(fd, $0.0, $0.1) == 0 } ?? true
        let finished = written == contents.count && owned && fchmod(fd, mode) == 0 && fsync(fd) == 0
        close(fd)
        // Without `replace`, link(2) fails if the name exists by now; rename would overwrite it.
        let placed = finished && (replace ? rename(temporary, path) == 0 : link(temporary, path) == 0 && unlink(temporary) == 0)
        guard placed else {
            unlink(temporary)
            throw CLIError(message: "Unable to write \(path) (\(SystemError.describe(errno))).", hint: nil, status: ExitStatus.failure)
        }
    }
}
