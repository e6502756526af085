import CredentialVault
import Glibc
import Sodium
import SystemErrors

/// Where the agent of one vault listens, and the lock it holds while it runs (docs/agent.md,
/// "Where"): in the user's runtime directory, `$XDG_RUNTIME_DIR/credctl/` (else
/// `/tmp/credctl-UID/`), 0700 and the user's own — checked, never followed through a link.
public struct AgentPlace: Sendable, Equatable {
    public let directory: String
    /// The control socket.
    public let socket: String
    /// Held with `flock(LOCK_EX)` by the running agent.
    public let lock: String
    /// The ssh-agent socket serving every identity of the vault (for `SSH_AUTH_SOCK`).
    public let sshSocket: String
    /// What per-connection ssh-agent sockets are called: this, 16 hex digits, `.sock`.
    let connectionSocketPrefix: String

    /// The place of the agent serving `vaultPath`: plain names for the default vault, names
    /// with the start of the SHA-256 of the vault's absolute path for any other.
    public init(vaultPath: String, environment: [String: String]) {
        // /tmp only without a runtime directory at all: one that is set but unusable is refused
        // by `check`, never silently replaced.
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        directory = runtime.map { $0 + "/credctl" } ?? "/tmp/credctl-\(geteuid())"
        let absolute = Self.absolute(vaultPath)
        let suffix = absolute == Self.absolute(VaultDirectory.defaultPath(environment: environment)) ? ""
            : "-" + SHA256.hex(SHA256.hash(Array(absolute.utf8)).prefix(8))
        socket = directory + "/agent\(suffix).sock"
        lock = directory + "/agent\(suffix).lock"
        sshSocket = directory + "/ssh-agent\(suffix).sock"
        connectionSocketPrefix = "ssh-agent\(suffix)."
    }

    /// Makes the directory (mode 0700) if it is missing, and checks that it is a directory, not a
    /// link, owned by this user and closed to everyone else; a place that is not is refused.
    public func prepare() throws {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw AgentError("Unable to create the agent's directory \(directory): \(SystemError.describe(errno)).")
        }
        try check()
    }

    /// Checks the directory as `prepare` does, without creating it (a client).
    public func check() throws {
        var info = stat()
        guard lstat(directory, &info) == 0 else { throw AgentError("The agent's directory \(directory) cannot be read: \(SystemError.describe(errno)).") }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw AgentError("\(directory) is not a directory; the agent does not use it.") }
        guard info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            throw AgentError("The agent's directory \(directory) is not this user's alone (mode \(String(info.st_mode & 0o777, radix: 8))); the agent does not use it.")
        }
    }

    /// The path with every link and `..` resolved, so one vault has one agent however it is named
    /// (and an agent started in "/" finds the vault a relative path named).
    public static func absolute(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: 4_096)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return String(cString: buffer) + "/" + path
    }

    /// A new per-connection ssh-agent socket's path (random, so no client can guess another's).
    func connectionSocket() throws -> String {
        directory + "/" + connectionSocketPrefix + SHA256.hex(try SecretBytes.random(count: 8).withUnsafeBytes { Array($0) }) + ".sock"
    }

    /// Removes per-connection sockets of this vault's agent that nothing serves: an agent killed
    /// outright leaves them. Only the lock's holder calls this.
    func removeStaleConnectionSockets() {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(connectionSocketPrefix), name.hasSuffix(".sock"),
                  name.utf8.count == connectionSocketPrefix.utf8.count + 16 + 5 else { continue }
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { continue }
            unlink(path)
        }
    }
}
