import KeyFormats
import UnixSockets

/// Reads and writes ssh-agent messages: a 4-byte big-endian length and that many bytes.
enum SSHAgentMessageIO {
    /// OpenSSH's own agent refuses longer messages too.
    static let messageLimit = 256 << 10

    /// One message, which must arrive whole within `seconds` of its first byte; nil at end of
    /// stream, past the deadline, or for a length out of bounds.
    static func read(_ fd: Int32, seconds: Int) -> [UInt8]? {
        let deadline = Deadline(seconds: seconds)
        var head = [UInt8](repeating: 0, count: 4)
        guard head.withUnsafeMutableBytes({ SocketStream.receive(fd, $0, deadline) }) else { return nil }
        let length = head.reduce(0) { $0 << 8 | Int($1) }
        guard length >= 1, length <= messageLimit else { return nil }
        var body = [UInt8](repeating: 0, count: length)
        guard body.withUnsafeMutableBytes({ SocketStream.receive(fd, $0, deadline) }) else { return nil }
        return body
    }

    static func write(_ fd: Int32, _ message: [UInt8]) -> Bool {
        var writer = SSHWireWriter()
        writer.string(message)
        return SocketStream.send(fd, writer.bytes)
    }
}
