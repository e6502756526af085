import Glibc

/// Replaces this process with another program (`execve`): used when nothing is left to do
/// after it starts, so its exit status is the command's.
public enum ProcessImage {
    /// Never returns on success; throws with 127 (not found) or 126 (cannot run) otherwise.
    public static func replace(with arguments: [String], environment: ChildEnvironment, path: String?) throws -> Never {
        guard let program = arguments.first else { throw LaunchError("No command to run.", status: 127) }
        guard let executable = ExecutableSearch.find(program, path: path) else {
            throw LaunchError("Command not found: \(program)", status: 127)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let code = environment.withEnvp { envp -> Int32 in
            execve(executable, argv, envp)
            return errno
        }
        throw LaunchError("Cannot run \(executable): \(String(cString: strerror(code))).", status: code == ENOENT ? 127 : 126)
    }
}
