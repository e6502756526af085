import Replication
import SQLite

/// The wire payload of a config record in format version 2 and later: per field group of its
/// kind that the format carries, in the kind's order, the group's stamp (version and write
/// context, tag 0 for the envelope's own version seen alone, tag 2 for a group nobody wrote)
/// and the group's values. Canonical: one record state, one encoding.
/// See docs/concurrent-edits.md.
///
/// A kind that gains a group after format 2 carries it from a later format on
/// (`FieldGroup.since`): a record is written in the first format that carries every group
/// written, so a record that leaves the new group unwritten still reaches older builds, and
/// one that has written it reaches them as a format they keep for after their upgrade.
package enum FieldPayload {
    /// The format field groups began with; every kind's first groups are carried from it on.
    package static let formatVersion: UInt16 = 2

    /// The format a record with these stamps is written in: the first that carries each group
    /// some device wrote.
    static func format(of stamps: [FieldStamp], groups: [FieldGroup]) -> UInt16 {
        zip(groups, stamps).filter { !$0.1.isUnwritten }.map { $0.0.since }.max() ?? formatVersion
    }

    /// A record's column values with one stamp per group, in `format(of:groups:)`;
    /// `recordVersion` is the greatest stamp.
    static func encode(_ values: [SQLValue], stamps: [FieldStamp], groups: [FieldGroup], recordVersion: RecordVersion) -> [UInt8] {
        let format = format(of: stamps, groups: groups)
        var writer = ByteWriter()
        writer.u16(UInt16(groups.filter { $0.since <= format }.count))
        for (group, stamp) in zip(groups, stamps) where group.since <= format {
            stamp.encode(into: &writer, recordVersion: recordVersion)
            ConfigPayload.encode(group.values(of: values), into: &writer)
        }
        return writer.bytes
    }

    /// For fuzzing: whether `bytes` decode as a `kind` record of `format` at `recordVersion`
    /// (nil when they do not), and if so whether they encode back to exactly themselves (they
    /// must: decoding refuses a record in any format but its own).
    package static func reencodes(_ bytes: [UInt8], kind: String, format: UInt16, recordVersion: RecordVersion) -> Bool? {
        guard let type = ConfigZone.kinds[kind],
              let (values, stamps) = decode(bytes, format: format, groups: type.fieldGroups, columnCount: type.columns.count, recordVersion: recordVersion)
        else { return nil }
        return encode(values, stamps: stamps, groups: type.fieldGroups, recordVersion: recordVersion) == bytes
    }

    /// The column values and stamps of a `format` payload of a kind with `groups` over
    /// `columnCount` columns, or nil for anything malformed or not canonical. The groups the
    /// format does not carry are unwritten.
    static func decode(_ bytes: [UInt8], format: UInt16, groups: [FieldGroup], columnCount: Int,
                       recordVersion: RecordVersion) -> (values: [SQLValue], stamps: [FieldStamp])? {
        var reader = ByteReader(bytes)
        do {
            guard format >= formatVersion, Int(try reader.u16()) == groups.filter({ $0.since <= format }).count else { return nil }
            var values = [SQLValue](repeating: .null, count: columnCount)
            var stamps: [FieldStamp] = []
            for group in groups {
                let stamp = group.since <= format ? try FieldStamp.decode(from: &reader, recordVersion: recordVersion) : .unwritten
                let groupValues = group.since <= format ? try ConfigPayload.decode(from: &reader, count: group.columns.count) : group.unwritten
                // Only a group added since format 2 can be unwritten, and then it holds what that means.
                if stamp.isUnwritten, group.since == formatVersion || groupValues != group.unwritten { return nil }
                stamps.append(stamp)
                for (column, value) in zip(group.columns, groupValues) { values[column] = value }
            }
            // The envelope's version is its newest group's; its format, the first that carries them.
            guard reader.isAtEnd, stamps.map(\.version).max() == recordVersion, self.format(of: stamps, groups: groups) == format else { return nil }
            return (values, stamps)
        } catch {
            return nil
        }
    }
}
