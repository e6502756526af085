import Replication
import SQLite

/// The wire payload of a config record (format version 1): its columns after `id`, in the
/// order of `ConfigRecord.columns`, each as a tagged value. Canonical: one record, one encoding.
package enum ConfigPayload {
    package static let formatVersion: UInt16 = 1

    package static func encode(_ values: [SQLValue]) -> [UInt8] {
        var writer = ByteWriter()
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
        return writer.bytes
    }

    /// Decodes exactly `count` values, or nil for anything malformed.
    package static func decode(_ bytes: [UInt8], count: Int) -> [SQLValue]? {
        var reader = ByteReader(bytes)
        do {
            guard Int(try reader.u16()) == count else { return nil }
            var values: [SQLValue] = []
            for _ in 0..<count {
                switch try reader.u8() {
                case 0: values.append(.null)
                case 1: values.append(.integer(try reader.i64()))
                case 2: values.append(.text(try reader.string()))
                case 3: values.append(.blob(try reader.data()))
                case 4: values.append(.real(Double(bitPattern: try reader.u64())))
                default: return nil
                }
            }
            return reader.isAtEnd ? values : nil
        } catch {
            return nil
        }
    }
}
