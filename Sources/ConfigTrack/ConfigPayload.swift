import Replication
import SQLite

/// The wire payload of a config record (format version 1): its columns after `id`, in the
/// order of `ConfigRecord.columns`, each as a tagged value. Canonical: one record, one encoding.
package enum ConfigPayload {
    package static let formatVersion: UInt16 = 1

    package static func encode(_ values: [SQLValue]) -> [UInt8] {
        var writer = ByteWriter()
        encode(values, into: &writer)
        return writer.bytes
    }

    /// Decodes exactly `count` values, or nil for anything malformed.
    package static func decode(_ bytes: [UInt8], count: Int) -> [SQLValue]? {
        var reader = ByteReader(bytes)
        guard let values = try? decode(from: &reader, count: count), reader.isAtEnd else { return nil }
        return values
    }

    /// A u16 count, then each value tagged (format 2 writes each field group's values so).
    static func encode(_ values: [SQLValue], into writer: inout ByteWriter) {
        writer.u16(UInt16(values.count))
        for value in values {
            switch value {
            case .null: writer.u8(0)
            case .integer(let number): writer.u8(1); writer.i64(number)
            case .text(let text): writer.u8(2); writer.string(text)
            case .blob(let bytes): writer.u8(3); writer.data(bytes)
            case .real(let number): writer.u8(4); writer.u64(number.bitPattern)
            }
        }
    }

    /// Reads what `encode(_:into:)` wrote, refusing any count but `count`.
    static func decode(from reader: inout ByteReader, count: Int) throws -> [SQLValue] {
        guard Int(try reader.u16()) == count else { throw ReplicationError(.malformed, "A config payload holds the wrong number of values.") }
        return try (0..<count).map { _ in
            switch try reader.u8() {
            case 0: return .null
            case 1: return .integer(try reader.i64())
            case 2: return .text(try reader.string())
            case 3: return .blob(try reader.data())
            case 4: return .real(Double(bitPattern: try reader.u64()))
            default: throw ReplicationError(.malformed, "A config value has an unknown tag.")
            }
        }
    }
}
