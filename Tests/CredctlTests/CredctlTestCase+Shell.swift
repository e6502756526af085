import Foundation

extension CredctlTestCase {
    /// Runs `script` with the shell at `path` (`-c`), as a user's shell would run credctl: the
    /// built credctl first on PATH, the test's directory as HOME and working directory, its vault
    /// in CREDCTL_VAULT and a UTF-8 locale. Returns the exit status and standard output and error together.
    func runShell(_ path: String, _ script: String, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ["PATH": (CredctlRunner.binary as NSString).deletingLastPathComponent + ":/usr/bin:/bin", "HOME": directory,
                               "CREDCTL_VAULT": vaultPath, "LANG": "C.UTF-8"].merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs `arguments` (a shell and its words) with exactly `environment`, in `workingDirectory`,
    /// with no standard input; standard output and error apart, as credctl's runner gives them.
    func runApart(_ arguments: [String], environment: [String: String], workingDirectory: String? = nil) throws -> CredctlRunner.Result {
        let process = Process(), out = Pipe(), err = Pipe()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory ?? directory)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CredctlRunner.Result(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                                    stdout: Array(stdout), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// `text` as one word for sh, bash, zsh and fish: in single quotes, a quote written as '\''.
    func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
