import Replication

/// The payload of a live secret envelope in format 2: the sealed body exactly as format 1 sends
/// it, then its write context and the context's length (u32). The body comes first so an older
/// build still sees a sealed body and keeps the envelope for after its upgrade.
enum SecretPayload {
    static func encode(sealed: [UInt8], context: VersionContext) -> [UInt8] {
        let tail = context.encoded
        var length = ByteWriter()
        length.u32(UInt32(tail.count))
        return sealed + tail + length.bytes
    }

    /// The sealed body and context of a format-2 payload of a write at `version`, or nil when
    /// the payload is malformed or the context cannot be that write's.
    static func decode(_ payload: [UInt8], version: RecordVersion) -> (sealed: [UInt8], context: VersionContext)? {
        guard payload.count >= 4 else { return nil }
        var lengthReader = ByteReader(Array(payload.suffix(4)))
        guard let length = try? lengthReader.u32(), Int(length) <= payload.count - 4 else { return nil }
        let start = payload.count - 4 - Int(length)
        var reader = ByteReader(Array(payload[start..<(payload.count - 4)]))
        guard let context = try? VersionContext.decode(from: &reader), reader.isAtEnd, context.isWriteContext(of: version) else { return nil }
        return (Array(payload[..<start]), context)
    }
}
