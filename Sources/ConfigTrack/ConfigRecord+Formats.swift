import Replication
import SQLite

/// What a kind's field groups added since format 2 (`FieldGroup.since`) change in reading
/// records an older build wrote: a format-1 payload, or a state kept before an upgrade, holds
/// only the columns of the first groups — added groups have the last columns, in group order —
/// and reads the rest as unwritten.
extension ConfigRecord {
    /// The newest payload format this build reads for the kind.
    static var newestFormat: UInt16 { fieldGroups.map(\.since).max() ?? FieldPayload.formatVersion }

    /// Whether this build reads a live record of the kind in `format`.
    static func reads(format: UInt16) -> Bool {
        format == ConfigPayload.formatVersion || (FieldPayload.formatVersion...newestFormat).contains(format)
    }

    /// The groups added since format 2: those a record from an older build lacks.
    private static var addedGroups: [FieldGroup] { fieldGroups.filter { $0.since > FieldPayload.formatVersion } }

    /// How many columns a record an older build wrote has: those of the groups format 2 began with.
    static var olderColumnCount: Int { columns.count - addedGroups.reduce(0) { $0 + $1.columns.count } }

    /// The column values of a record an older build wrote (`ConfigPayload` of the columns it
    /// has), completed with the unwritten values of the groups added since; nil for anything
    /// malformed.
    private static func olderValues(_ bytes: [UInt8]) -> [SQLValue]? {
        ConfigPayload.decode(bytes, count: olderColumnCount).map { $0 + addedGroups.flatMap(\.unwritten) }
    }

    /// The values and stamps of a format-1 payload: every group it has at `version` seen alone,
    /// the groups added since unwritten.
    static func formatOne(_ payload: [UInt8], version: RecordVersion) -> (values: [SQLValue], stamps: [FieldStamp])? {
        olderValues(payload).map { ($0, fieldGroups.map { $0.since > FieldPayload.formatVersion ? .unwritten : .only(version) }) }
    }

    /// A record's column values as this device keeps them beside a tombstone or a conflict
    /// (`ConfigPayload`): all of them, or — kept before an upgrade — those of an older build.
    static func keptValues(_ bytes: [UInt8]) -> [SQLValue]? {
        ConfigPayload.decode(bytes, count: columns.count) ?? olderValues(bytes)
    }
}
