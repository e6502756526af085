import SQLite

/// The durable upload journal each track keeps in its own database.
///
/// A local edit calls `record` inside the same write transaction as the edit, so an edit can
/// never commit without its upload intent. One row per record: a later edit replaces the
/// pending version, and acknowledging clears the row only if it still holds the version sent.
/// Cursors and quarantine live beside the journal so a remote batch can be applied — records,
/// cursor and quarantine — in one transaction.
public enum Journal {
    public static let migration = Migration("replication: journal, cursors, quarantine") { db in
        try db.execute("""
            CREATE TABLE replication_journal (
                record_name TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                version_clock INTEGER NOT NULL,
                version_device TEXT NOT NULL,
                deleted INTEGER NOT NULL,
                incarnation INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE replication_cursors (
                zone TEXT NOT NULL,
                device TEXT NOT NULL,
                sequence INTEGER NOT NULL,
                PRIMARY KEY (zone, device)
            );
            CREATE TABLE replication_quarantine (
                id INTEGER PRIMARY KEY,
                zone TEXT NOT NULL,
                record_name TEXT NOT NULL,
                reason TEXT NOT NULL,
                bytes BLOB NOT NULL,
                received_clock INTEGER NOT NULL
            );
            CREATE INDEX replication_quarantine_record ON replication_quarantine (record_name);
            """)
    }

    /// `newestPending` runs before and after every command (the agent is told of new edits): by
    /// index, not by a scan of every edit a device that has not synced yet keeps.
    public static let clockIndexMigration = Migration("replication: the journal's newest edit by index") { db in
        try db.execute("CREATE INDEX replication_journal_clock ON replication_journal (version_clock)")
    }

    /// Records (or replaces) the pending upload intent for a record. Call inside a write.
    public static func record(_ db: Connection, _ entry: JournalEntry) throws {
        try db.run("""
            INSERT INTO replication_journal (record_name, kind, version_clock, version_device, deleted, incarnation)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (record_name) DO UPDATE SET kind = excluded.kind, version_clock = excluded.version_clock,
                version_device = excluded.version_device, deleted = excluded.deleted, incarnation = excluded.incarnation
            """, [entry.recordName, entry.kind, entry.version.clock, entry.version.device, entry.deleted, entry.incarnation])
    }

    /// Pending entries, oldest version first (at most `limit`).
    public static func pending(_ db: Connection, limit: Int = Int.max) throws -> [JournalEntry] {
        try db.query("SELECT record_name, kind, version_clock, version_device, deleted, incarnation FROM replication_journal ORDER BY version_clock, record_name LIMIT ?",
                     [Int64(min(limit, Int(Int64.max)))]) { row in
            JournalEntry(recordName: row.text(0) ?? "", kind: row.text(1) ?? "",
                         version: RecordVersion(clock: row.uint64(2), device: row.text(3) ?? ""),
                         deleted: row.bool(4), incarnation: row.int64(5))
        }
    }

    public static func pendingCount(_ db: Connection) throws -> Int {
        try db.queryFirst("SELECT count(*) FROM replication_journal") { $0.int(0) } ?? 0
    }

    /// The clock of the newest pending version, nil when nothing is pending. A local edit ticks
    /// the track's clock past every version it has seen, so this grows with each new edit.
    public static func newestPending(_ db: Connection) throws -> UInt64? {
        try db.queryFirst("SELECT max(version_clock) FROM replication_journal") { $0.isNull(0) ? nil : $0.uint64(0) } ?? nil
    }

    /// Clears the intent for `recordName` only if it still holds exactly `version`.
    public static func acknowledge(_ db: Connection, recordName: String, version: RecordVersion) throws {
        try db.run("DELETE FROM replication_journal WHERE record_name = ? AND version_clock = ? AND version_device = ?",
                   [recordName, version.clock, version.device])
    }

    /// The version pending for `recordName`, if any.
    public static func pendingVersion(_ db: Connection, recordName: String) throws -> RecordVersion? {
        try db.queryFirst("SELECT version_clock, version_device FROM replication_journal WHERE record_name = ?", [recordName]) {
            RecordVersion(clock: $0.uint64(0), device: $0.text(1) ?? "")
        }
    }

    /// Drops the pending intent for `recordName` (a fetched version superseded it).
    public static func discard(_ db: Connection, recordName: String) throws {
        try db.run("DELETE FROM replication_journal WHERE record_name = ?", [recordName])
    }

    /// Whether any quarantined copy of `recordName` is held.
    public static func isQuarantined(_ db: Connection, recordName: String) throws -> Bool {
        try db.queryFirst("SELECT 1 FROM replication_quarantine WHERE record_name = ? LIMIT 1", [recordName]) { _ in true } ?? false
    }

    /// Keeps bytes that could not be applied, with the reason, out of the way of other records;
    /// `envelope` (its encoding) when a newer build could apply it.
    public static func quarantine(_ db: Connection, zone: String, recordName: String, reason: String, bytes: [UInt8], at version: RecordVersion,
                                  envelope: [UInt8]? = nil, objectDigest: [UInt8]? = nil) throws {
        try db.run("INSERT INTO replication_quarantine (zone, record_name, reason, bytes, received_clock, envelope, object_digest) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [zone, recordName, reason, bytes, version.clock, envelope, objectDigest])
    }

    /// Everything held in quarantine, oldest first.
    public static func quarantined(_ db: Connection) throws -> [QuarantineEntry] {
        try db.query("SELECT id, zone, record_name, reason, length(bytes), envelope IS NOT NULL FROM replication_quarantine ORDER BY id") {
            QuarantineEntry(id: $0.int64(0), zone: $0.text(1) ?? "", recordName: $0.text(2) ?? "", reason: $0.text(3) ?? "", size: $0.int(4), awaitsUpgrade: $0.bool(5))
        }
    }

    public static func quarantineCount(_ db: Connection) throws -> Int {
        try db.queryFirst("SELECT count(*) FROM replication_quarantine") { $0.int(0) } ?? 0
    }

    /// Drops one quarantined entry for good; false if there is no such entry.
    public static func discardQuarantined(_ db: Connection, id: Int64) throws -> Bool {
        try db.run("DELETE FROM replication_quarantine WHERE id = ?", [id])
        return db.changes > 0
    }
}
