import Launch
import XCTest

final class SSHCommandLineTests: XCTestCase {
    private let target = SSHCommandLine.Target(hostname: "web.internal", port: 2222, username: "deploy", jumps: ["jump@[::1]:2200"],
                                               forwards: [(flag: "-L", specification: "8080:localhost:80")])

    func testLeadingOptionsAndTheirArgumentsAreTheUsersAndTheRestIsTheCommand() throws {
        let line = try SSHCommandLine(userWords: ["-vvp", "22", "-oConnectTimeout=5", "-A", "ls", "-la", "/tmp"])
        XCTAssertEqual(line.userOptions, ["-vvp", "22", "-oConnectTimeout=5", "-A"])
        XCTAssertEqual(line.command, ["ls", "-la", "/tmp"])
        XCTAssertEqual(line.arguments(for: target), ["ssh", "-vvp", "22", "-oConnectTimeout=5", "-A", "-o", "Port=2222", "-o", "User=deploy",
                                                     "-o", "ProxyJump=jump@[::1]:2200", "-L", "8080:localhost:80", "--", "web.internal", "ls", "-la", "/tmp"])
        XCTAssertEqual(try SSHCommandLine(userWords: ["-t", "--", "-weird-command"]).command, ["-weird-command"])
        XCTAssertEqual(try SSHCommandLine(userWords: []).arguments(for: target).suffix(2), ["--", "web.internal"])
        // OpenSSH 9.2: -P takes no argument, -m does.
        XCTAssertEqual(try SSHCommandLine(userWords: ["-P", "x", "uptime"]).command, ["x", "uptime"])
        XCTAssertEqual(try SSHCommandLine(userWords: ["-m", "hmac-sha2-256", "uptime"]).command, ["uptime"])
    }

    func testWordsSshWouldRefuseAreRefused() {
        XCTAssertThrowsError(try SSHCommandLine(userWords: ["-p"]))
        XCTAssertThrowsError(try SSHCommandLine(userWords: ["-vZ", "x"]))
    }

    func testJumpSpecificationsAreWhatProxyJumpTakes() {
        XCTAssertEqual(SSHCommandLine.jumpSpecification(hostname: "b.example", port: 22, username: nil), "b.example")
        XCTAssertEqual(SSHCommandLine.jumpSpecification(hostname: "::1", port: 2200, username: "j"), "j@[::1]:2200")
    }

    func testAPromptIsAnsweredOnlyForItsOwnAccount() {
        let prompt = AskpassPrompt.password(user: "deploy", host: "web.internal")
        XCTAssertTrue(prompt.matches("deploy@web.internal's password: "))
        XCTAssertTrue(prompt.matches("(deploy@web.internal) Password: "))
        XCTAssertFalse(prompt.matches("deploy@web.internal.evil's password: "))
        XCTAssertFalse(prompt.matches("root@web.internal's password: "))
        XCTAssertTrue(AskpassPrompt.password(user: "deploy", host: "Web.Internal").matches("deploy@web.internal's password: "), "ssh lowercases the host")
        XCTAssertFalse(prompt.matches("Are you sure you want to continue connecting (yes/no/[fingerprint])? "))
        XCTAssertTrue(AskpassPrompt.keyPassphrase.matches("Enter passphrase for (stdin): "))
    }
}
