import Foundation
import KeyFormats
import SSHAgentService
import UnixSockets
import XCTest

/// The ssh-agent socket served to real OpenSSH clients (`ssh-add`) and to hostile ones.
final class SSHAgentListenerTests: XCTestCase {
    private var directory = ""

    /// Lists fixed identities and signs nothing, counting what it was asked to sign.
    private final class ListingKeys: SSHAgentKeys, @unchecked Sendable {
        let listed: [SSHAgentIdentity]
        private let lock = NSLock()
        private var signRequests = 0
        init(_ listed: [SSHAgentIdentity]) { self.listed = listed }
        func identities() -> [SSHAgentIdentity] { listed }
        func sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32, forwarded: Bool) -> [UInt8]? {
            lock.withLock {
                signRequests += 1
                if forwarded { forwardedRequests += 1 }
            }
            return nil
        }
        private var forwardedRequests = 0
        var signed: Int { lock.withLock { signRequests } }
        var signedForwarded: Int { lock.withLock { forwardedRequests } }
    }

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "agent-listener-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    private func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private func publicKey() throws -> (line: String, blob: [UInt8]) {
        _ = try run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "k", "-f", directory + "/id"], environment: [:])
        let line = try String(contentsOfFile: directory + "/id.pub", encoding: .utf8)
        let base64 = String(line.split(separator: " ")[1])
        return (line.split(separator: " ").prefix(2).joined(separator: " "), Array(try XCTUnwrap(Data(base64Encoded: base64))))
    }

    /// An SSH `string`: a big-endian length, then the bytes.
    private static func string(_ bytes: [UInt8]) -> [UInt8] {
        var writer = SSHWireWriter()
        writer.string(bytes)
        return writer.bytes
    }

    private func connect(_ path: String) throws -> Int32 { try XCTUnwrap(UnixSocket.connect(to: path, timeoutSeconds: 2)) }

    private func exchange(_ fd: Int32, _ message: [UInt8]) -> SSHAgentReply? {
        guard SocketStream.send(fd, Self.string(message)) else { return nil }
        var head = [UInt8](repeating: 0, count: 4)
        let deadline = Deadline(seconds: 2)
        guard head.withUnsafeMutableBytes({ SocketStream.receive(fd, $0, deadline) }) else { return nil }
        var body = [UInt8](repeating: 0, count: head.reduce(0) { $0 << 8 | Int($1) })
        guard body.withUnsafeMutableBytes({ SocketStream.receive(fd, $0, deadline) }) else { return nil }
        return SSHAgentReply(message: body)
    }

    func testSshAddListsTheIdentitiesWithTheirLabelsAndTheSocketIsPrivate() throws {
        let key = try publicKey()
        let listener = try SSHAgentListener(path: directory + "/agent.sock", keys: ListingKeys([SSHAgentIdentity(keyBlob: key.blob, comment: "web key")]))
        defer { listener.stop() }
        var info = stat()
        XCTAssertEqual(lstat(directory + "/agent.sock", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        let listed = try run("/usr/bin/ssh-add", ["-L"], environment: ["SSH_AUTH_SOCK": directory + "/agent.sock"])
        XCTAssertEqual(listed.status, 0)
        XCTAssertEqual(listed.output, key.line + " web key\n")
        // Adding a key is refused: the vault decides what the agent holds.
        let added = try run("/usr/bin/ssh-add", [directory + "/id"], environment: ["SSH_AUTH_SOCK": directory + "/agent.sock"])
        XCTAssertNotEqual(added.status, 0)
    }

    func testEveryOtherMessageIsAFailureAndBrokenFramingEndsTheConnection() throws {
        let keys = ListingKeys([])
        let listener = try SSHAgentListener(path: directory + "/agent.sock", keys: keys)
        defer { listener.stop() }
        let fd = try connect(directory + "/agent.sock")
        defer { close(fd) }
        // Lock, add, remove-all, another extension, a session-bind cut short, a sign request cut short.
        for message: [UInt8] in [[22] + Self.string([]), [17], [19], [27] + Self.string(Array("query".utf8)),
                                 [27] + Self.string(Array("session-bind@openssh.com".utf8)), [13, 0, 0]] {
            XCTAssertEqual(exchange(fd, message), .failure)
        }
        XCTAssertEqual(exchange(fd, SSHAgentRequest.sign(keyBlob: [1], data: [2], flags: 0).message), .failure)
        XCTAssertEqual(keys.signed, 1, "only the well-formed sign request reached the keys")
        // A connection ssh binds as forwarded stays forwarded, whatever binding follows.
        XCTAssertEqual(exchange(fd, SSHAgentRequest.sessionBind(forwarding: true).message), .success)
        XCTAssertEqual(exchange(fd, SSHAgentRequest.sessionBind(forwarding: false).message), .success)
        XCTAssertEqual(exchange(fd, SSHAgentRequest.sign(keyBlob: [1], data: [2], flags: 0).message), .failure)
        XCTAssertEqual(keys.signedForwarded, 1, "the request after a forwarding bind is marked forwarded")
        XCTAssertEqual(exchange(fd, [11]), .identities([]))
        // A length past the limit: no answer, the connection is closed.
        let huge = try connect(directory + "/agent.sock")
        defer { close(huge) }
        XCTAssertTrue(SocketStream.send(huge, [0, 0x10, 0, 0]), "a length of 1 MiB")
        var byte: UInt8 = 0
        XCTAssertEqual(recv(huge, &byte, 1, 0), 0, "closed without an answer")
    }

    func testConnectionsBeyondTheLimitAreClosedAndStopRemovesTheSocket() throws {
        let listener = try SSHAgentListener(path: directory + "/agent.sock", keys: ListingKeys([]))
        var held: [Int32] = []
        for _ in 0..<SSHAgentListener.connectionLimit { held.append(try connect(directory + "/agent.sock")) }
        for fd in held { XCTAssertEqual(exchange(fd, [11]), .identities([])) }
        let extra = try connect(directory + "/agent.sock")
        var byte: UInt8 = 0
        XCTAssertEqual(recv(extra, &byte, 1, 0), 0, "the connection past the limit is closed")
        close(extra)
        listener.stop()
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/agent.sock"))
        for fd in held {
            XCTAssertEqual(recv(fd, &byte, 1, 0), 0, "stop ends every connection")
            close(fd)
        }
    }
}
