@testable import Agent
import Foundation
import Sodium
import XCTest

/// Every byte on the agent's socket is hostile until a frame has passed: wrong versions, lengths
/// past the limit or past the frame, truncated frames and unknown requests are refused, never
/// read past, and a valid frame round-trips, secrets included.
final class AgentFrameTests: XCTestCase {
    /// A connected socket pair with `bytes` already sent on one end and that end closed.
    private func reading(_ bytes: [UInt8]) -> Frame? {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        defer { close(fds[0]) }
        _ = bytes.withUnsafeBytes { send(fds[1], $0.baseAddress, $0.count, 0) }
        close(fds[1])
        return Frame.read(from: fds[0], limit: Frame.requestLimit, seconds: 2)
    }

    private func frame(version: UInt8 = Frame.version, type: UInt8, _ fields: [[UInt8]]) -> [UInt8] {
        let body = [version, type] + fields.flatMap { field in
            withUnsafeBytes(of: UInt32(field.count).bigEndian, Array.init) + field
        }
        return withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init) + body
    }

    func testValidFramesRoundTripAndHostileOnesAreRefused() throws {
        let read = try XCTUnwrap(reading(frame(type: 0x04, [Array("host.x.password".utf8)])))
        guard case .read(let reference)? = AgentRequest(read) else { return XCTFail("a read request") }
        XCTAssertEqual(reference, "host.x.password")
        guard case .changed? = AgentRequest(try XCTUnwrap(reading(frame(type: 0x07, [])))) else { return XCTFail("a changed request") }

        XCTAssertNil(reading(frame(version: 9, type: 0x01, [])), "another protocol version")
        XCTAssertNil(reading([0, 0, 0, 2, Frame.version]), "truncated")
        XCTAssertNil(reading([0x7F, 0xFF, 0xFF, 0xFF]), "a length past the limit")
        XCTAssertNil(reading([0, 0, 0, 0]), "empty")
        XCTAssertNil(reading([0, 0, 0, 7, Frame.version, 0x04, 0xFF, 0xFF, 0xFF, 0xF0, 0x41]), "a field longer than its frame")
        XCTAssertNil(reading([0, 0, 0, 4, Frame.version, 0x04, 0, 0]), "a field length cut short")
        let manyEmpty = [Frame.version, 0x04] + [UInt8](repeating: 0, count: 4 * 1_000)
        XCTAssertNil(reading(withUnsafeBytes(of: UInt32(manyEmpty.count).bigEndian, Array.init) + manyEmpty), "more fields than any message has")
        for hostile in [frame(type: 0x77, []), frame(type: 0x01, [[1]]), frame(type: 0x04, []),
                        frame(type: 0x02, [Array("root".utf8), [], Array("0".utf8), Array("0".utf8)]),
                        frame(type: 0x02, [Array("passphrase".utf8), [], Array("-1".utf8), Array("0".utf8)]),
                        frame(type: 0x02, [Array("passphrase".utf8), [], Array("90000".utf8), Array("0".utf8)]),
                        frame(type: 0x04, [Array(repeating: 0x41, count: 300)]), frame(type: 0x07, [[]])] {
            let parsed = try XCTUnwrap(reading(hostile))
            XCTAssertNil(AgentRequest(parsed), "\(hostile.prefix(12))")
        }
    }

    func testASecretTravelsWholeAndAStatusKeepsItsFields() throws {
        let secret = try SecretBytes(copying: [0, 1, 2, 255, 10, 13])
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        XCTAssertTrue(try AgentResponse.secret(secret).frame.write(to: fds[1]))
        let sync = AgentSyncStatus(last: 100, next: nil, error: "remote unreachable", count: 3, watch: "watching")
        XCTAssertTrue(try AgentResponse.status(unlocked: true, secondsLeft: 42, pid: 7, vaultID: "v", sync: sync).frame.write(to: fds[1]))
        guard case .secret(let body)? = Frame.read(from: fds[0], limit: Frame.responseLimit, seconds: 2).flatMap(AgentResponse.init) else { return XCTFail() }
        XCTAssertTrue(body == secret)
        guard case .status(let unlocked, let left, let pid, let vault, let read)? = Frame.read(from: fds[0], limit: Frame.responseLimit, seconds: 2).flatMap(AgentResponse.init) else { return XCTFail() }
        XCTAssertEqual([unlocked ? "u" : "l", String(left ?? 0), String(pid), vault], ["u", "42", "7", "v"])
        XCTAssertEqual(read, sync)
        // An agent from before the sync count and the watch answers seven fields.
        let older = try Frame(type: 0x82, texts: ["locked", "", "7", "v", "100", "", ""])
        guard case .status(_, _, _, _, let synced)? = AgentResponse(older) else { return XCTFail("an older agent's status") }
        XCTAssertEqual(synced, AgentSyncStatus(last: 100, next: nil, error: nil, count: 0, watch: nil))
    }

    func testAClientThatStopsSendingIsCutOffAtTheDeadline() {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        let partial: [UInt8] = [0, 0, 0, 10, Frame.version]
        _ = partial.withUnsafeBytes { send(fds[1], $0.baseAddress, $0.count, 0) }
        let started = Date()
        XCTAssertNil(Frame.read(from: fds[0], limit: Frame.requestLimit, seconds: 1))
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }
}
