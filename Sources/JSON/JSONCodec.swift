/// Codable types to and from JSON bytes, without Foundation (docs/startup.md): strict reading
/// (`JSONParser`), deterministic writing (`JSONWriter`, keys sorted).
public enum JSONCodec {
    /// Decodes `type` from `bytes`; any fault in the bytes or their shape is an error.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try ValueDecoder.decode(type, from: try JSONParser.parse(bytes), at: [])
    }

    /// Encodes `value`; pretty-printed with two-space indentation, or compact.
    public static func encode<T: Encodable>(_ value: T, pretty: Bool) throws -> [UInt8] {
        let box = ValueEncoder.Box()
        try ValueEncoder.encode(value, into: box, at: [])
        return JSONWriter.write(try box.value(depth: 0), pretty: pretty)
    }
}
