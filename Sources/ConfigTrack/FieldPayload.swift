import Replication
import SQLite

/// The wire payload of a config record in format version 2: per field group of its kind, in the
/// kind's order, the group's stamp (version and write context, or tag 0 for the envelope's own
/// version seen alone) and the group's values. Canonical: one record state, one encoding.
/// See docs/concurrent-edits.md.
package enum FieldPayload {
    package static let formatVersion: UInt16 = 2

    /// A record's column values with one stamp per group; `recordVersion` is the greatest stamp.
    static func encode(_ values: [SQLValue], stamps: [FieldStamp], groups: [FieldGroup], recordVersion: RecordVersion) -> [UInt8] {
        var writer = ByteWriter()
        writer.u16(UInt16(groups.count))
        for (group, stamp) in zip(groups, stamps) {
            stamp.encode(into: &writer, recordVersion: recordVersion)
            ConfigPayload.encode(group.values(of: values), into: &writer)
        }
        return writer.bytes
    }

    /// For fuzzing: whether `bytes` decode as a `kind` record at `recordVersion` (nil when they
    /// do not), and if so whether they encode back to exactly themselves (they must).
    package static func reencodes(_ bytes: [UInt8], kind: String, recordVersion: RecordVersion) -> Bool? {
        guard let type = ConfigZone.kinds[kind],
              let (values, stamps) = decode(bytes, groups: type.fieldGroups, columnCount: type.columns.count, recordVersion: recordVersion) else { return nil }
        return encode(values, stamps: stamps, groups: type.fieldGroups, recordVersion: recordVersion) == bytes
    }

    /// The column values and stamps of a payload of a kind with `groups` over `columnCount`
    /// columns, or nil for anything malformed or not canonical.
    static func decode(_ bytes: [UInt8], groups: [FieldGroup], columnCount: Int, recordVersion: RecordVersion) -> (values: [SQLValue], stamps: [FieldStamp])? {
        var reader = ByteReader(bytes)
        do {
            guard Int(try reader.u16()) == groups.count else { return nil }
            var values = [SQLValue](repeating: .null, count: columnCount)
            var stamps: [FieldStamp] = []
            for group in groups {
                stamps.append(try FieldStamp.decode(from: &reader, recordVersion: recordVersion))
                for (column, value) in zip(group.columns, try ConfigPayload.decode(from: &reader, count: group.columns.count)) { values[column] = value }
            }
            // The envelope's version is its newest group's.
            guard reader.isAtEnd, stamps.map(\.version).max() == recordVersion else { return nil }
            return (values, stamps)
        } catch {
            return nil
        }
    }
}
