import Foundation
@testable import SSHConfig
import XCTest

final class SSHConfigParsingTests: XCTestCase {
    private func line(_ text: String) throws -> SSHConfigLine? { try SSHConfigLine(Substring(text), location: "test:1") }

    func testKeywordsAndArgumentsAreReadAsSshReadsThem() throws {
        XCTAssertNil(try line("   # a comment"))
        XCTAssertNil(try line("\t  "))
        XCTAssertEqual(try line("HostName=10.0.0.5")?.arguments, ["10.0.0.5"])
        XCTAssertEqual(try line("  Port = 2222")?.arguments, ["2222"])
        XCTAssertEqual(try line("\tLocalForward\t8080   localhost:80  # web")?.arguments, ["8080", "localhost:80"])
        XCTAssertEqual(try line("IdentityFile \"~/My Keys/id\"")?.arguments, ["~/My Keys/id"])
        XCTAssertEqual(try line("USER Deploy")?.keyword, "user")
        XCTAssertThrowsError(try line("HostName \"open"))
        XCTAssertEqual(try line("IdentityFile '/keys/my key'")?.arguments, ["/keys/my key"])
        XCTAssertEqual(try line("User o\\'brien")?.arguments, ["o'brien"])
        XCTAssertEqual(try line("User \"a \\\"b\\\" c\"")?.arguments, ["a \"b\" c"])
    }

    func testHostPatternsMatchLikeSsh() {
        XCTAssertTrue(SSHPattern.matches("*.internal", "db.INTERNAL"))
        XCTAssertFalse(SSHPattern.matches("*.internal", "internal"))
        XCTAssertTrue(SSHPattern.matches("web-?", "web-1"))
        XCTAssertFalse(SSHPattern.matches("web-?", "web-10"))
        var block = SSHConfigBlock(kind: .host, patterns: ["*.example", "!secret.example"], location: "t")
        block.lines = []
        XCTAssertTrue(block.applies(to: "a.example"))
        XCTAssertFalse(block.applies(to: "secret.example"))
        XCTAssertEqual(SSHConfigBlock(kind: .host, patterns: ["web", "*.web", "!x", "web2"], location: "t").concreteNames, ["web", "web2"])
        XCTAssertFalse(SSHConfigBlock(kind: .match, patterns: ["all"], location: "t").applies(to: "web"))
    }

    func testProxyJumpAndProxyCommandCompeteWhicheverComesFirstWins() throws {
        let path = NSTemporaryDirectory() + "ssh_config-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "Host jumps\n  ProxyJump a\nHost commands\n  ProxyCommand nc %h %p\nHost *\n  ProxyCommand late\n  ProxyJump late\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let file = try SSHConfigFile(path: path, home: "/nonexistent")
        XCTAssertEqual(SSHConfigHost(alias: "jumps", in: file).settings["proxyjump"], ["a"])
        XCTAssertNil(SSHConfigHost(alias: "jumps", in: file).settings["proxycommand"], "ignored: ProxyJump came first")
        XCTAssertEqual(SSHConfigHost(alias: "commands", in: file).settings["proxycommand"], ["nc", "%h", "%p"])
        XCTAssertNil(SSHConfigHost(alias: "commands", in: file).settings["proxyjump"])
    }
}
