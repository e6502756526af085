import CPosix
import Glibc
import SystemErrors
import Sodium

/// Whether a passphrase opens an encrypted private key file, asked of OpenSSH's own
/// `ssh-keygen -y`, which decrypts the key and prints its public key. The passphrase reaches it
/// only through askpass (`AskpassServer`): never in its arguments, environment or a file.
public enum KeyPassphraseCheck {
    /// The public key line `ssh-keygen -y -f keyPath` prints when `passphrase` opens the key, or
    /// nil when it does not. Throws when ssh-keygen cannot be found or run (69).
    public static func publicKey(ofKeyAt keyPath: String, passphrase: SecretBytes, askpass: AskpassServer,
                                 askpassProgram: String, path: String?) throws -> String? {
        guard let keygen = ExecutableSearch.find("ssh-keygen", path: path) else {
            throw LaunchError("ssh-keygen (OpenSSH) is needed to check the key's passphrase, and was not found.", status: 69)
        }
        let token = try askpass.grant([(AskpassPrompt.keyFilePassphrase, passphrase)])
        let environment = try ChildEnvironment(askpass.environment(token: token, askpass: askpassProgram).merging(["PATH": "/usr/bin:/bin"]) { $1 })
        var fds: [Int32] = [-1, -1]
        guard cposix_pipe_cloexec(&fds) == 0 else { throw LaunchError("Cannot create a pipe (\(SystemError.describe(errno))).") }
        let child: ChildProcess
        do {
            // A path starting with "-" is still a path: it follows -f.
            child = try ChildProcess.spawn(keygen, ["ssh-keygen", "-y", "-f", keyPath], environment: environment, silent: true, output: fds[1])
        } catch {
            close(fds[0]); close(fds[1])
            throw error
        }
        close(fds[1])
        var printed: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while printed.count < 64 << 10 {
            let count = read(fds[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            printed += buffer[..<count]
        }
        close(fds[0])
        guard child.wait() == 0 else { return nil }
        return String(decoding: printed, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}
