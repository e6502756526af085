import Glibc
import Sodium

/// The ssh-agent a connection's private keys are handed to, with `ssh-add -` reading each key
/// from a pipe: the key is never written to disk. Either a private agent started for one
/// connection (its socket in a private directory; stopped, with every key, by `stop()`; its
/// keys also expire after `privateLifetime`, should this process be killed outright) or the
/// user's running agent, where keys are added with the lifetime the user chose.
public final class SSHAgent {
    /// The socket clients use (`SSH_AUTH_SOCK`).
    public let socketPath: String
    private let process: ChildProcess?
    private let directory: String?
    private let lifetime: Int
    private let addProgram: String

    /// How long a private agent holds a key if nobody stops it: 8 hours.
    public static let privateLifetime = 28_800

    /// Starts a private agent in a new 0700 directory under `parent`.
    public static func startPrivate(parent: String, path: String?) throws -> SSHAgent {
        guard let agent = ExecutableSearch.find("ssh-agent", path: path), let add = ExecutableSearch.find("ssh-add", path: path) else {
            throw LaunchError("ssh-agent and ssh-add are needed to hand a key to ssh, and were not found.", status: 69)
        }
        var template = Array("\(parent)/credctl-agent-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw LaunchError("Cannot create a private directory in \(parent).") }
        let directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let socket = directory + "/agent.sock"
        // -D: in the foreground, as this process's child, so it is stopped for certain.
        let process = try ChildProcess.spawn(agent, ["ssh-agent", "-D", "-a", socket], environment: try ChildEnvironment([:]), silent: true)
        for _ in 0..<400 {
            if access(socket, F_OK) == 0 {
                return SSHAgent(socketPath: socket, process: process, directory: directory, lifetime: privateLifetime, addProgram: add)
            }
            usleep(5_000)
        }
        process.terminate()
        _ = process.wait()
        rmdir(directory)
        throw LaunchError("ssh-agent did not start.")
    }

    /// The user's running agent at `socket`, holding added keys for `lifetime` seconds.
    public static func running(socket: String, lifetime: Int, path: String?) throws -> SSHAgent {
        guard let add = ExecutableSearch.find("ssh-add", path: path) else { throw LaunchError("ssh-add was not found.", status: 69) }
        return SSHAgent(socketPath: socket, process: nil, directory: nil, lifetime: lifetime, addProgram: add)
    }

    private init(socketPath: String, process: ChildProcess?, directory: String?, lifetime: Int, addProgram: String) {
        self.socketPath = socketPath
        self.process = process
        self.directory = directory
        self.lifetime = lifetime
        self.addProgram = addProgram
    }

    /// Adds `key` (OpenSSH or PEM text). `askpass` is the environment that lets ssh-add ask for
    /// an encrypted key's passphrase (see `AskpassServer`).
    public func add(_ key: SecretBytes, name: String, askpass: [String: String]) throws {
        let environment = try ChildEnvironment(askpass.merging(["SSH_AUTH_SOCK": socketPath, "PATH": "/usr/bin:/bin"]) { $1 })
        let arguments = ["ssh-add", "-q", "-t", String(lifetime), "-"]
        let status = try ChildProcess.spawn(addProgram, arguments, environment: environment, input: key, silent: true).wait()
        guard status == 0 else {
            throw LaunchError("ssh-add could not load the private key of \(name) (status \(status)): a wrong or missing passphrase, or a key it does not support.",
                              status: 77)
        }
    }

    /// Stops a private agent (its keys go with it) and removes its directory.
    public func stop() {
        guard let process else { return }
        process.terminate()
        _ = process.wait()
        unlink(socketPath)
        if let directory { rmdir(directory) }
    }
}
