import Glibc
import Launch
import Sodium
import XCTest

/// The askpass socket: a secret goes only to its token, for a prompt it matches, once.
final class AskpassServerTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        var template = Array("/tmp/askpass-test-XXXXXX".utf8CString)
        XCTAssertNotNil(mkdtemp(&template))
        directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    override func tearDownWithError() throws { rmdir(directory) }

    private func ask(_ server: AskpassServer, token: String, prompt: String) -> (AskpassReply?, String) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(server.socketPath.utf8)) }
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard connected == 0 else { return (nil, "") }
        let request = Array((token + "\n" + prompt).utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        shutdown(fd, Int32(SHUT_WR))
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            reply += chunk[..<n]
        }
        guard let head = reply.first else { return (nil, "") }
        return (AskpassReply(rawValue: head), String(decoding: reply.dropFirst(), as: UTF8.self))
    }

    func testATokenGetsItsSecretOnceForAMatchingPromptAndNothingElse() throws {
        let server = try AskpassServer(parent: directory)
        let token = try server.grant([(.password(user: "u", host: "h"), try SecretBytes(utf8: "pw-1"))])
        let other = try server.grant([(.keyPassphrase, try SecretBytes(utf8: "phrase"))])
        var info = stat()
        XCTAssertEqual(stat(server.socketPath, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)

        XCTAssertEqual(ask(server, token: "0000", prompt: "u@h's password: ").0, .refused, "an unknown token")
        XCTAssertEqual(ask(server, token: token, prompt: "Are you sure (yes/no)? ").0, .askTerminal, "not a prompt it answers")
        XCTAssertEqual(ask(server, token: other, prompt: "u@h's password: ").0, .askTerminal, "another token's secret is not this one's")
        let answered = ask(server, token: token, prompt: "u@h's password: ")
        XCTAssertEqual(answered.0, .answer)
        XCTAssertEqual(answered.1, "pw-1")
        XCTAssertEqual(ask(server, token: token, prompt: "u@h's password: ").0, .askTerminal, "used once")
        XCTAssertEqual(ask(server, token: other, prompt: "Enter passphrase for (stdin): ").1, "phrase")

        // Two secrets for one prompt text (two hops with the same account): the second prompt
        // goes to the terminal, never to the other secret.
        let twice = try server.grant([(.password(user: "u", host: "gw"), try SecretBytes(utf8: "jump")),
                                      (.password(user: "u", host: "gw"), try SecretBytes(utf8: "target"))])
        XCTAssertEqual(ask(server, token: twice, prompt: "u@gw's password: ").1, "jump")
        XCTAssertEqual(ask(server, token: twice, prompt: "u@gw's password: ").0, .askTerminal)

        let path = server.socketPath
        server.stop()
        XCTAssertNotEqual(access(path, F_OK), 0, "the socket is gone")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [], "and its directory")
    }

    func testAnEnvironmentCannotCarryANulByte() throws {
        let environment = try ChildEnvironment(["A": "1"])
        XCTAssertThrowsError(try environment.set("B", secret: try SecretBytes(copying: [0x61, 0x00, 0x62])))
        XCTAssertThrowsError(try environment.set("NO=GOOD", text: "x"))
        try environment.set("B", secret: try SecretBytes(utf8: "ok"))
        XCTAssertEqual(environment.names.sorted(), ["A", "B"])
    }
}
