/// A bounds-checked cursor over SSH wire-format data (RFC 4251 §5): `uint32`, `string`, `mpint`.
///
/// It borrows the bytes it reads, so it must stay inside the `withUnsafeBytes` closure that
/// produced them. Every length is checked against the bytes that remain; a failed read throws
/// `KeyFileDefect.truncated` and leaves the cursor where it was.
package struct SSHWireReader {
    private let bytes: UnsafeRawBufferPointer
    /// Offset of the next unread byte.
    package private(set) var offset: Int

    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.offset = 0
    }

    package var remaining: Int { bytes.count - offset }
    package var isAtEnd: Bool { offset == bytes.count }

    /// Reads a big-endian `uint32`.
    package mutating func readUInt32() throws -> UInt32 {
        guard remaining >= 4 else { throw KeyFileDefect.truncated }
        var value: UInt32 = 0
        for index in offset..<offset + 4 { value = value << 8 | UInt32(bytes[index]) }
        offset += 4
        return value
    }

    /// Reads one byte.
    package mutating func readUInt8() throws -> UInt8 {
        guard remaining >= 1 else { throw KeyFileDefect.truncated }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a length-prefixed `string` and returns the view of its contents (no copy).
    package mutating func readString() throws -> UnsafeRawBufferPointer {
        let start = offset
        let length = try readUInt32()
        // Compare in Int: UInt32 always fits on the 64-bit platforms we build for.
        guard Int(length) <= remaining else {
            offset = start
            throw KeyFileDefect.truncated
        }
        let view = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(length)])
        offset += Int(length)
        return view
    }

    /// Reads a `string` and copies it out; for public data only (names, public key blobs).
    package mutating func readPublicBytes() throws -> [UInt8] {
        Array(try readString())
    }

    /// Reads a `string` that must be printable ASCII (cipher, KDF and key type names).
    package mutating func readName() throws -> String {
        let view = try readString()
        guard view.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
            throw KeyFileDefect("a name field holds bytes that are not printable ASCII")
        }
        return String(decoding: view, as: UTF8.self)
    }

    /// The type name a key or signature blob begins with, e.g. `ssh-ed25519`.
    package static func typeName(of blob: [UInt8]) throws -> String {
        try blob.withUnsafeBytes { bytes in
            var reader = SSHWireReader(bytes)
            return try reader.readName()
        }
    }

    /// Skips `count` bytes.
    package mutating func skip(_ count: Int) throws {
        guard count >= 0, count <= remaining else { throw KeyFileDefect.truncated }
        offset += count
    }
}
