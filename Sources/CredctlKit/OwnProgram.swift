import Glibc

/// Where this program is, as a child must run it (askpass), and where its private runtime
/// directories go.
enum OwnProgram {
    /// This program's own path (`/proc/self/exe`).
    static func path() throws -> String {
        var buffer = [CChar](repeating: 0, count: 4_096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw CLIError(message: "Cannot find credctl's own path for SSH_ASKPASS.", hint: nil, status: ExitStatus.failure) }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `$XDG_RUNTIME_DIR` when it is a directory of this user, else `/tmp`.
    static func privateParent(_ environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            var info = stat()
            if stat(runtime, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() { return runtime }
        }
        return "/tmp"
    }
}
