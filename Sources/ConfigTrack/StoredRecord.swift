import Replication
import SQLite

/// One config record as its row holds it: column values, the record's version (its newest
/// group's), each field group's stamp, and its incarnation.
struct StoredRecord {
    let values: [SQLValue]
    let version: RecordVersion
    let stamps: [FieldStamp]
    let incarnation: Int64

    /// The row of `key` in `type`'s table, or nil. A `fields` column that does not decode (a
    /// damaged database) reads as every group at the row's version.
    static func read(_ db: Connection, _ type: any ConfigRecord.Type, key: String) throws -> StoredRecord? {
        try db.queryFirst(type.selectColumnsSQL, [key]) { StoredRecord(row: $0, type: type, from: 0) }
    }

    /// Every row of `type`'s table in id order, with its id.
    static func forEach(_ db: Connection, _ type: any ConfigRecord.Type, _ body: (String, StoredRecord) throws -> Void) throws {
        let sql = "SELECT id, " + (type.columns + ["version_clock", "version_device", "fields", "incarnation"]).joined(separator: ", ") + " FROM \(type.table) ORDER BY id"
        try db.forEach(sql) { row in try body(row.text(0) ?? "", StoredRecord(row: row, type: type, from: 1)) }
    }

    /// Reads the columns, version, `fields` and incarnation that start at column `first` of `row`.
    private init(row: Row, type: any ConfigRecord.Type, from first: Int32) {
        let count = Int32(type.columns.count)
        version = RecordVersion(clock: row.uint64(first + count), device: row.text(first + count + 1) ?? "")
        stamps = (try? FieldStamp.fromStorage(row.blob(first + count + 2), recordVersion: version, count: type.fieldGroups.count))
            ?? Array(repeating: .only(version), count: type.fieldGroups.count)
        values = (first..<(first + count)).map { row.value($0) }
        incarnation = row.int64(first + count + 3)
    }

    /// The record as a live envelope, in the first format that carries every group written.
    func envelope(_ type: any ConfigRecord.Type, recordName: String) -> Envelope {
        Envelope(recordName: recordName, kind: type.kind, formatVersion: FieldPayload.format(of: stamps, groups: type.fieldGroups), version: version,
                 deleted: false, incarnation: incarnation, payload: FieldPayload.encode(values, stamps: stamps, groups: type.fieldGroups, recordVersion: version))
    }
}
