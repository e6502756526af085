import Launch
import XCTest

final class SSHCommandLineTests: XCTestCase {
    private let target = SSHCommandLine.Target(host: .init(label: "web", hostname: "web.internal", port: 2222, username: "deploy"),
                                               jumps: [.init(label: "jump", hostname: "::1", port: 2200, username: "jump")],
                                               forwards: [(flag: "-L", specification: "8080:localhost:80")])

    func testLeadingOptionsAndTheirArgumentsAreTheUsersAndTheRestIsTheCommand() throws {
        let line = try SSHCommandLine(userWords: ["-vvp", "22", "-oConnectTimeout=5", "-A", "ls", "-la", "/tmp"])
        XCTAssertEqual(line.userOptions, ["-vvp", "22", "-oConnectTimeout=5", "-A"])
        XCTAssertEqual(line.command, ["ls", "-la", "/tmp"])
        XCTAssertEqual(try line.arguments(for: target), ["ssh", "-vvp", "22", "-oConnectTimeout=5", "-A", "-o", "Port=2222", "-o", "User=deploy",
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
        XCTAssertEqual(SSHCommandLine.jumpSpecification(.init(label: "b", hostname: "b.example", port: 22, username: nil)), "b.example")
        XCTAssertEqual(SSHCommandLine.jumpSpecification(.init(label: "j", hostname: "::1", port: 2200, username: "j")), "j@[::1]:2200")
    }

    /// Whatever let a value through before, the command line refuses it on its own: ssh is never
    /// handed a word a shell or a `%` token would read.
    func testHostileValuesNeverReachTheCommandLine() throws {
        let line = try SSHCommandLine(userWords: [])
        func refusal(_ host: SSHCommandLine.Hop, jumps: [SSHCommandLine.Hop] = [], forwards: [(flag: String, specification: String)] = []) -> LaunchError? {
            do {
                _ = try line.arguments(for: .init(host: host, jumps: jumps, forwards: forwards))
                return nil
            } catch {
                return error as? LaunchError
            }
        }
        let plain = SSHCommandLine.Hop(label: "t", hostname: "t.example", port: 22, username: nil)
        let hostileJump = SSHCommandLine.Hop(label: "jump", hostname: "jump.invalid", port: 22, username: "x$IFS-oProxyCommand=touch\\$IFS/tmp/PWNED")
        let jumpError = refusal(plain, jumps: [hostileJump])
        XCTAssertEqual(jumpError?.status, 65)
        XCTAssertEqual(jumpError?.message, "The jump host 'jump' is refused: its user name may contain only letters, digits, '.', '-', '_', '@' and '+' "
                       + "(stored before credctl checked it, or received from another device; change it with credctl host edit).")
        for hostname in ["-oProxyCommand=x", "a b", "a\nb", "%h", "$(id)", "a;b", "`id`"] {
            XCTAssertEqual(refusal(.init(label: "t", hostname: hostname, port: 22, username: nil))?.status, 65, hostname.debugDescription)
        }
        for username in ["-l", "a b", "%u", "a'b", "a\\b", "a\"b", "a`b", "a$b", "a\nb"] {
            XCTAssertEqual(refusal(.init(label: "t", hostname: "t.example", port: 22, username: username))?.status, 65, username.debugDescription)
        }
        XCTAssertEqual(refusal(.init(label: "t", hostname: "t.example", port: 0, username: nil))?.status, 65)
        let zoned = SSHCommandLine.Hop(label: "j", hostname: "fe80::1%eth0", port: 22, username: nil)
        XCTAssertNotNil(refusal(plain, jumps: [zoned]), "ProxyJump would expand the zone's %")
        XCTAssertNil(refusal(zoned), "a zone is fine as the destination itself")
        for specification in ["8080:db;id:80", "8080:$(id):80", "-oProxyCommand=x", "80 80", "8080:db\n:80", "/tmp/sock:db:80"] {
            XCTAssertNotNil(refusal(plain, forwards: [(flag: "-L", specification: specification)]), specification.debugDescription)
        }
        XCTAssertNil(refusal(plain, forwards: [(flag: "-R", specification: "*:0:[::1]:80")]))
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
        // The keyboard-interactive form needs "password" after the account, in any case.
        XCTAssertTrue(prompt.matches("(deploy@web.internal) One-time PASSWORD for you: "))
        XCTAssertFalse(prompt.matches("(deploy@web.internal) Verification code: "))
        XCTAssertFalse(prompt.matches("(deploy@web.internal) passwor"))
    }

    /// ssh's host key confirmation is typed visibly; other prompts are not.
    func testYesNoQuestionsAreToldFromSecrets() {
        XCTAssertTrue(AskpassPrompt.isQuestion("Are you sure you want to continue connecting (yes/no/[fingerprint])? "))
        XCTAssertTrue(AskpassPrompt.isQuestion("(yes/no"))
        XCTAssertFalse(AskpassPrompt.isQuestion("deploy@web.internal's password: "))
        XCTAssertFalse(AskpassPrompt.isQuestion("(yes/n"))
        XCTAssertFalse(AskpassPrompt.isQuestion(""))
    }
}
