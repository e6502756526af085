import Foundation
import XCTest

/// Runs the built `credctl` binary as a user would, capturing everything it says.
struct CredctlRunner {
    struct Result {
        let status: Int32
        /// True when the process died of a signal (then `status` is the signal number).
        let signaled: Bool
        let stdout: [UInt8]
        let stderr: String
        var output: String { String(decoding: stdout, as: UTF8.self) }
    }

    let vault: String
    var environment: [String: String]
    /// The credctl to run: the one built beside the tests, unless a test picks another build.
    var executable = CredctlRunner.binary

    /// The `credctl` built beside the test bundle.
    static var binary: String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("credctl").path,
            Bundle.main.bundleURL.appendingPathComponent("credctl").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    init(vault: String, keyFile: String?) {
        self.vault = vault
        // A clean environment: only what credctl needs, so the user's own vault is never touched.
        environment = ["PATH": "/usr/bin:/bin", "HOME": (vault as NSString).deletingLastPathComponent, "CREDCTL_VAULT": vault,
                       "CREDCTL_INSECURE_FAST_KDF": "1"]
        if let keyFile { environment["CREDCTL_KEY_FILE"] = keyFile }
    }

    /// Runs `credctl arguments…` with `input` on standard input.
    @discardableResult
    func run(_ arguments: [String], input: [UInt8] = [], extraEnvironment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { $1 }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                      stdout: Array(out), stderr: String(decoding: err, as: UTF8.self))
    }

    func run(_ arguments: String..., input: String = "") throws -> Result {
        try run(arguments, input: Array(input.utf8))
    }

    /// Starts `credctl` once per argument list, all together (output discarded), and returns
    /// their exit statuses in the same order once every one has ended.
    func runTogether(_ argumentLists: [[String]]) throws -> [Int32] {
        let processes = argumentLists.map { arguments in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            return process
        }
        for process in processes { try process.run() }
        return processes.map { process in
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Runs `arguments` (one shell-quoted line) with a pseudo-terminal as standard output, through
    /// `script`; returns what the terminal showed, then "status N".
    func runOnTerminal(_ arguments: String) throws -> String {
        let environment = self.environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "env \(environment) \(Self.binary) \(arguments)", "/dev/null"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self) + "\nstatus \(process.terminationStatus)"
    }
}

/// Base class for black-box tests: a temporary directory and a runner per test.
class CredctlTestCase: XCTestCase {
    var directory = ""
    var credctl: CredctlRunner!
    var vaultPath: String { directory + "/vault" }
    var keyFile: String { directory + "/vault.key" }

    override func setUpWithError() throws {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("credctl-test-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw XCTSkip("mkdtemp failed") }
        directory = String(cString: made)
        credctl = CredctlRunner(vault: vaultPath, keyFile: keyFile)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: CredctlRunner.binary), "build credctl first: \(CredctlRunner.binary)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Creates the vault with its key file and checks that it worked.
    func initVault(file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try credctl.run("init")
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
    }

    func assertStatus(_ result: CredctlRunner.Result, _ status: Int32, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(result.signaled, "credctl died of signal \(result.status)", file: file, line: line)
        XCTAssertEqual(result.status, status, "stderr: \(result.stderr)", file: file, line: line)
    }
}
