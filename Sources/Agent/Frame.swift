import Glibc
import Sodium
import UnixSockets

/// One message on the control socket (docs/agent.md, "Wire format"): a 4-byte big-endian length
/// and that many bytes — the protocol version, a type byte, then fields, each a 4-byte big-endian
/// length and its bytes. Frames are read into guarded memory whole, so a field that is a secret is
/// never copied out of it; other fields are read as text.
public struct Frame {
    /// The protocol this build speaks; a frame of another version is no frame (an agent left
    /// running across an upgrade is then treated as absent).
    public static let version: UInt8 = 1
    /// The largest request: an unlock's material (a key file is at most 64 KiB).
    public static let requestLimit = 80 << 10
    /// The largest response: a secret body (a private key file is at most 1 MiB).
    public static let responseLimit = 2 << 20
    /// No message has more fields; each field costs a guarded allocation, so a frame of many
    /// empty fields is refused before it costs thousands of them.
    public static let fieldLimit = 9

    public let type: UInt8
    public let fields: [SecretBytes]

    public init(type: UInt8, fields: [SecretBytes]) {
        self.type = type
        self.fields = fields
    }

    public init(type: UInt8, texts: [String]) throws {
        self.init(type: type, fields: try texts.map { try SecretBytes(copying: Array($0.utf8)) })
    }

    /// Field `index` as text (never for a secret).
    public func text(_ index: Int) -> String? {
        guard index < fields.count else { return nil }
        return fields[index].withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes the frame to `fd`; false when the peer is gone.
    public func write(to fd: Int32) -> Bool {
        let total = 2 + fields.reduce(0) { $0 + 4 + $1.count }
        guard total <= Self.responseLimit else { return false }
        guard SocketStream.send(fd, Self.bigEndian(total) + [Self.version, type]) else { return false }
        for field in fields {
            guard SocketStream.send(fd, Self.bigEndian(field.count)), field.withUnsafeBytes({ SocketStream.send(fd, $0) }) else { return false }
        }
        return true
    }

    /// Reads one frame of at most `limit` bytes from `fd`, all of it within `seconds`: nil at end
    /// of stream, past the deadline, or when it breaks the format. Guarded memory is taken only
    /// once the length is accepted.
    public static func read(from fd: Int32, limit: Int, seconds: Int) -> Frame? {
        let deadline = Deadline(seconds: seconds)
        var head = [UInt8](repeating: 0, count: 4)
        guard head.withUnsafeMutableBytes({ SocketStream.receive(fd, $0, deadline) }) else { return nil }
        let length = head.reduce(0) { $0 << 8 | Int($1) }
        guard length >= 2, length <= limit, let body = try? SecretBytes(zeroedCount: length),
              body.withUnsafeMutableBytes({ SocketStream.receive(fd, $0, deadline) }) else { return nil }
        return decode(body)
    }

    /// The frame whose bytes after the length are `body`, or nil when they break the format.
    public static func decode(_ body: SecretBytes) -> Frame? {
        body.withUnsafeBytes { bytes -> Frame? in
            guard bytes.count >= 2, bytes[0] == version else { return nil }
            var fields: [SecretBytes] = []
            var offset = 2
            while offset < bytes.count {
                guard fields.count < fieldLimit, offset + 4 <= bytes.count else { return nil }
                let count = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
                offset += 4
                guard count <= bytes.count - offset, let field = try? body.slice(offset..<(offset + count)) else { return nil }
                fields.append(field)
                offset += count
            }
            return Frame(type: bytes[1], fields: fields)
        }
    }

    private static func bigEndian(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
}
