import Foundation
import TestSupport
import XCTest
import struct Identifiers.UUID

/// A real OpenSSH server (Debian's openssh-server) on 127.0.0.1, started by the test with its own
/// configuration and host key in a temporary directory. It admits one account, `credvault-test`
/// (created if missing, which needs root), by password or by the public keys given.
final class OpenSSHServer {
    static let user = "credvault-test"

    let directory: String
    let port: Int
    /// The account's password, new for every server.
    let password: String
    /// A client configuration for `ssh -F`: no host key prompts, no known_hosts written. (ssh
    /// passes `-F` on to the ssh it runs for a jump host; it does not pass `-o`.)
    let clientConfig: String
    private let daemon: pid_t

    /// Its files go in a new directory of their own: sshd reads the authorized keys as the
    /// account, which must be able to reach them (a test's private directory is 0700).
    init(authorizedKeys: [String]) throws {
        guard geteuid() == 0 else { throw HeadlessKeyring.FixtureFailure("The OpenSSH tests create the account \(Self.user) and run sshd: run them as root.") }
        var template = Array("/tmp/credctl-sshd-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw HeadlessKeyring.FixtureFailure("mkdtemp failed") }
        directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chmod(directory, 0o755)
        try Self.ensureAccount()
        password = "pw-" + UUID().uuidString
        _ = try Self.run("/usr/sbin/chpasswd", [], input: "\(Self.user):\(password)\n")
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        let keys = directory + "/authorized_keys"
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try (authorizedKeys.joined(separator: "\n") + "\n").write(toFile: keys + "/" + Self.user, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keys + "/" + Self.user)
        _ = try Self.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "host", "-f", directory + "/host_ed25519"])
        port = try Loopback.freePort()
        let config = directory + "/sshd_config"
        try """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(directory)/host_ed25519
            PidFile \(directory)/sshd.pid
            AuthorizedKeysFile \(keys)/%u
            StrictModes no
            UsePAM no
            PasswordAuthentication yes
            KbdInteractiveAuthentication no
            PubkeyAuthentication yes
            AllowUsers \(Self.user)
            AllowTcpForwarding yes
            LogLevel VERBOSE
            """.write(toFile: config, atomically: true, encoding: .utf8)
        clientConfig = directory + "/ssh_config"
        try "Host *\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n  ConnectTimeout 10\n"
            .write(toFile: clientConfig, atomically: true, encoding: .utf8)
        daemon = try FixtureProcesses.spawn(["/usr/sbin/sshd", "-D", "-e", "-f", config])
        for _ in 0..<200 {
            if Loopback.accepts(port) { return }
            usleep(25_000)
        }
        stop()
        throw HeadlessKeyring.FixtureFailure("sshd did not start on 127.0.0.1:\(port)")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func stop() {
        kill(daemon, SIGTERM)
        var status: Int32 = 0
        while waitpid(daemon, &status, 0) < 0 && errno == EINTR {}
        FixtureProcesses.unregister(daemon)
    }


    private static func ensureAccount() throws {
        if getpwnam(user) != nil { return }
        _ = try run("/usr/sbin/useradd", ["--create-home", "--shell", "/bin/sh", user])
        guard getpwnam(user) != nil else { throw HeadlessKeyring.FixtureFailure("useradd did not create \(user)") }
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw HeadlessKeyring.FixtureFailure("\(executable) failed with status \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }
}
