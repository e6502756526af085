import SQLite

/// This device's own removals that a version from elsewhere replaced before they were sent, for
/// both zones. Kept so an undo of that version (a revoked device's, taken in past its cutoff) can
/// put the removal back: it never left this device, so no history read again holds it, and
/// without it the removed record would come back (docs/devices.md, "A revocation race").
/// Collected with the conflicts, after 90 days: no revocation race lasts that long.
public enum ReplacedRemovals {
    public static let migration = Migration("replication: own unsent removals replaced from elsewhere") { db in
        try db.execute("""
            CREATE TABLE replication_replaced_removals (
                record_name TEXT NOT NULL, incarnation INTEGER NOT NULL,
                version_clock INTEGER NOT NULL, version_device TEXT NOT NULL, context BLOB,
                winner_clock INTEGER NOT NULL, winner_device TEXT NOT NULL,
                recorded_at INTEGER NOT NULL,
                PRIMARY KEY (record_name, winner_clock, winner_device))
            """)
    }

    /// One removal put back: its incarnation, version and what its device had seen.
    public struct Removal: Sendable {
        public let incarnation: Int64
        public let version: RecordVersion
        public let context: VersionContext
    }

    /// Keeps `own` — a tombstone of this device's, pending — as replaced by `winner`; called by a
    /// merge inside its transaction, before the tombstone and its removal are overwritten.
    public static func keep(_ db: Connection, own: Envelope, winner: RecordVersion) throws {
        let context = try RemovalLog.context(db, recordName: own.recordName, incarnation: own.incarnation, version: own.version)
        try db.run("""
            INSERT OR REPLACE INTO replication_replaced_removals
                (record_name, incarnation, version_clock, version_device, context, winner_clock, winner_device, recorded_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [own.recordName, own.incarnation, own.version.clock, own.version.device, context?.encoded, winner.clock, winner.device,
                  Int64(HybridLogicalClock.wallMilliseconds() / 1_000)])
    }

    /// After an undo removed `undone` versions of `recordName`: the newest own removal one of them
    /// replaced, taken out of keeping. The zone puts it back (`restore`) unless a later life
    /// stands or a removal of its life or a later one remains.
    public static func take(_ db: Connection, recordName: String, beatenBy undone: Set<RecordVersion>) throws -> Removal? {
        let kept = try db.query("""
            SELECT incarnation, version_clock, version_device, context, winner_clock, winner_device FROM replication_replaced_removals
            WHERE record_name = ? ORDER BY version_clock DESC
            """, [recordName]) { row in
            let version = RecordVersion(clock: row.uint64(1), device: row.text(2) ?? "")
            return (removal: Removal(incarnation: row.int64(0), version: version, context: RemovalLog.decodedContext(row.blob(3)) ?? VersionContext(only: version)),
                    winner: RecordVersion(clock: row.uint64(4), device: row.text(5) ?? ""))
        }
        guard let own = kept.first(where: { undone.contains($0.winner) }) else { return nil }
        try db.run("DELETE FROM replication_replaced_removals WHERE record_name = ? AND winner_clock = ? AND winner_device = ?",
                   [recordName, own.winner.clock, own.winner.device])
        return own.removal
    }

    /// The bookkeeping of a removal put back, after the zone stored its tombstone: its context
    /// again, and the journal entry that sends it.
    public static func restore(_ db: Connection, recordName: String, kind: String, _ removal: Removal) throws {
        try RemovalLog.store(db, recordName: recordName, incarnation: removal.incarnation, version: removal.version, context: removal.context)
        try Journal.record(db, JournalEntry(recordName: recordName, kind: kind, version: removal.version, deleted: true, incarnation: removal.incarnation))
    }

    /// Forgets removals kept since before `cutoff` (Unix seconds).
    public static func collect(_ db: Connection, before cutoff: Int64) throws {
        try db.run("DELETE FROM replication_replaced_removals WHERE recorded_at < ?", [cutoff])
    }
}
