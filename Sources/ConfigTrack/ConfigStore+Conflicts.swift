import Identifiers
import Replication
import SQLite

extension ConfigStore {
    /// How long a losing field value is kept for `conflicts restore` (as for secrets).
    public static let conflictRetentionDays: Int64 = 90

    private static let selectConflict = """
        SELECT id, record_name, kind, field_group, kept_values, kept_clock, kept_device,
               winner_values, winner_clock, winner_device, winner_deleted, record_state, recorded_at FROM config_conflicts
        """

    /// Keeps `group`'s value of `record` (written by `keptVersion`) as beaten by `winner` (nil
    /// for a deletion) at `winnerVersion`; called by the merge inside its transaction. A value
    /// kept once is not kept again.
    static func keepConflict(_ db: Connection, _ type: any ConfigRecord.Type, recordName: String, group: FieldGroup, record: [SQLValue],
                             keptVersion: RecordVersion, winner: [SQLValue]?, winnerVersion: RecordVersion) throws {
        try db.run("""
            INSERT OR IGNORE INTO config_conflicts (record_name, kind, field_group, kept_values, kept_clock, kept_device,
                                                    winner_values, winner_clock, winner_device, winner_deleted, record_state, recorded_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [recordName, type.kind, group.name, ConfigPayload.encode(group.values(of: record)), keptVersion.clock, keptVersion.device,
                  winner.map(ConfigPayload.encode), winnerVersion.clock, winnerVersion.device, winner == nil, ConfigPayload.encode(record),
                  Int64(HybridLogicalClock.wallMilliseconds() / 1_000)])
    }

    /// The kept losing field values, oldest first.
    public func conflicts() throws -> [ConfigConflict] {
        try read("list config conflicts") { db in try db.query(Self.selectConflict + " ORDER BY id") { Self.conflict($0) }.compactMap { $0 } }
    }

    /// The kept value `id`, if there is one.
    public func conflict(id: Int64) throws -> ConfigConflict? {
        try read("read config conflict \(id)") { db in try db.queryFirst(Self.selectConflict + " WHERE id = ?", [id]) { Self.conflict($0) } ?? nil }
    }

    /// Forgets the kept value `id`; false if there is none.
    @discardableResult
    public func dropConflict(_ id: Int64) throws -> Bool {
        try write("drop config conflict \(id)") { db in
            try db.run("DELETE FROM config_conflicts WHERE id = ?", [id])
            return db.changes > 0
        }
    }

    /// Collects kept values older than the retention period; returns how many went.
    @discardableResult
    public func collectExpiredConflicts(now: Int64 = Int64(HybridLogicalClock.wallMilliseconds() / 1_000)) throws -> Int {
        try write("collect expired config conflicts") { db in
            try db.run("DELETE FROM config_conflicts WHERE recorded_at < ?", [now - Self.conflictRetentionDays * 86_400])
            let collected = db.changes
            try ReplacedRemovals.collect(db, before: now - Self.conflictRetentionDays * 86_400)
            return collected
        }
    }

    /// A row as a conflict; nil for a kind or group this build does not know (kept, not shown).
    private static func conflict(_ row: Row) -> ConfigConflict? {
        guard let type = ConfigZone.kinds[row.text(2) ?? ""], let group = type.fieldGroups.first(where: { $0.name == row.text(3) }),
              let kept = ConfigPayload.decode(row.blob(4) ?? [], count: group.columns.count),
              let state = type.keptValues(row.blob(11) ?? []) else { return nil }
        let winner = row.blob(7).flatMap { ConfigPayload.decode($0, count: group.columns.count) }
        return ConfigConflict(id: row.int64(0), recordName: row.text(1) ?? "", kind: type.kind, group: group.name,
                              columns: group.columns.map { type.columns[$0] }, kept: kept,
                              keptVersion: RecordVersion(clock: row.uint64(5), device: row.text(6) ?? ""),
                              winner: row.bool(10) ? nil : winner, winnerVersion: RecordVersion(clock: row.uint64(8), device: row.text(9) ?? ""),
                              recordState: state, recordedAt: row.int64(12))
    }
}

extension ConfigStore {
    /// Applies the kept value `id` to its record again, as a new edit on this device: made after
    /// seeing the value that beat it, so it wins over that one everywhere and no device keeps the
    /// other as a conflict of its own. The record must still exist and the value must pass the
    /// rules of a save (an identity, group or jump host it names must exist). The entry stays
    /// until `dropConflict`, so a crash in between loses nothing (a second restore changes
    /// nothing and drops it). Returns the conflict restored.
    public func restoreConflict(_ id: Int64) throws -> ConfigConflict {
        guard let conflict = try conflict(id: id) else {
            throw ConfigError(.notFound, "There is no config conflict c\(id).", hint: "List them with: credctl conflicts list")
        }
        guard let type = ConfigZone.kinds[conflict.kind], let group = type.fieldGroups.first(where: { $0.name == conflict.group }),
              let recordID = conflict.recordID else {
            throw ConfigError(.invalid, "Config conflict c\(id) is of a record this build cannot restore.")
        }
        let key = CanonicalUUID.text(recordID)
        guard let stored = try read("read the record of a conflict", { db in try StoredRecord.read(db, type, key: key) }) else {
            try reviveWithKeptValue(type, conflict, group: group, id: recordID)
            return conflict
        }
        var values = stored.values
        for (column, value) in zip(group.columns, conflict.kept) { values[column] = value }
        let row = [SQLValue.text(key)] + values + [.integer(Int64(bitPattern: stored.version.clock)), .text(stored.version.device)]
        try saveRecord(try type.init(row: Row(values: row)))
        return conflict
    }

    /// A removed record comes back as the next incarnation of its record, as it was here (or as
    /// it was when the value was kept), with the kept value.
    private func reviveWithKeptValue<R: ConfigRecord>(_: R.Type, _ conflict: ConfigConflict, group: FieldGroup, id: UUID) throws {
        let key = CanonicalUUID.text(id)
        guard let removed = try removedRecord(R.self, id: id) ?? (try? R.unversioned(key: key, values: conflict.recordState)),
              try read("read the tombstone of a conflict", { db in try ConfigZone(store: self).tombstone(db, recordName: conflict.recordName, kind: R.kind) }) != nil
        else {
            throw ConfigError(.notFound, "The \(R.kind) this value belonged to is gone; nothing was restored.",
                              hint: "Leave the kept value to expire, or add the \(R.kind) again by hand.")
        }
        var values = removed.columnValues.map { $0.sqlValue }
        for (column, value) in zip(group.columns, conflict.kept) { values[column] = value }
        try reviveRecord(try R.unversioned(key: key, values: values))
    }
}
