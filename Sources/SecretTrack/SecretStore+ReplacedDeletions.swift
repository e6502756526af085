import Replication
import SQLite

/// This device's own deletions that a version from elsewhere replaced before they were sent.
/// Kept so an undo of that version (a revoked device's, taken in past its cutoff) can put the
/// deletion back: it never left this device, so no history read again holds it, and without it
/// the deleted secret would come back (docs/devices.md, "A revocation race").
extension SecretStore {
    static let replacedDeletionsMigration = Migration("secrets: own unsent deletions replaced from elsewhere") { db in
        try db.execute("""
            CREATE TABLE replaced_deletions (
                reference TEXT NOT NULL, incarnation INTEGER NOT NULL,
                version_clock INTEGER NOT NULL, version_device TEXT NOT NULL, context BLOB,
                winner_clock INTEGER NOT NULL, winner_device TEXT NOT NULL,
                recorded_at INTEGER NOT NULL,
                PRIMARY KEY (reference, winner_clock, winner_device))
            """)
    }

    /// Keeps `own`, a deletion of this device's not sent yet, as replaced by `winner`; called by
    /// the merge inside its transaction, before the marker and its removal are overwritten.
    static func keepReplacedDeletion(_ db: Connection, _ own: Envelope, winner: RecordVersion) throws {
        let context = try RemovalLog.context(db, recordName: own.recordName, incarnation: own.incarnation, version: own.version)
        try db.run("""
            INSERT OR REPLACE INTO replaced_deletions (reference, incarnation, version_clock, version_device, context, winner_clock, winner_device, recorded_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [own.recordName, own.incarnation, own.version.clock, own.version.device, context?.encoded, winner.clock, winner.device,
                  Int64(HybridLogicalClock.wallMilliseconds() / 1_000)])
    }

    /// After an undo removed `undone` versions of `reference`: the newest own deletion one of
    /// them replaced stands again, as it was, and is sent. Not when a later life stands or a
    /// deletion of the same or a later life remains. Returns whether one did.
    static func reinstateReplacedDeletion(_ db: Connection, _ reference: String, beatenBy undone: Set<RecordVersion>) throws -> Bool {
        let replaced = try db.query("""
            SELECT incarnation, version_clock, version_device, context, winner_clock, winner_device FROM replaced_deletions
            WHERE reference = ? ORDER BY version_clock DESC
            """, [reference]) { row in
            (incarnation: row.int64(0), version: RecordVersion(clock: row.uint64(1), device: row.text(2) ?? ""), context: RemovalLog.decodedContext(row.blob(3)),
             winner: RecordVersion(clock: row.uint64(4), device: row.text(5) ?? ""))
        }
        guard let own = replaced.first(where: { undone.contains($0.winner) }) else { return false }
        try db.run("DELETE FROM replaced_deletions WHERE reference = ? AND winner_clock = ? AND winner_device = ?", [reference, own.winner.clock, own.winner.device])
        guard try db.queryFirst("SELECT 1 FROM secret_items WHERE reference = ? AND incarnation > ?", [reference, own.incarnation], { _ in true }) == nil,
              try db.queryFirst("SELECT 1 FROM deletion_markers WHERE reference = ? AND incarnation >= ? AND local_only = 0", [reference, own.incarnation], { _ in true }) == nil
        else { return false }
        let context = own.context ?? VersionContext(only: own.version)
        try db.run("INSERT OR REPLACE INTO deletion_markers (reference, incarnation, version_clock, version_device, local_only, context) VALUES (?, ?, ?, ?, 0, ?)",
                   [reference, own.incarnation, own.version.clock, own.version.device, stored(context, version: own.version)])
        try db.run("DELETE FROM secret_items WHERE reference = ? AND incarnation <= ?", [reference, own.incarnation])
        try RemovalLog.store(db, recordName: reference, incarnation: own.incarnation, version: own.version, context: context)
        try Journal.record(db, JournalEntry(recordName: reference, kind: itemKind, version: own.version, deleted: true, incarnation: own.incarnation))
        return true
    }
}
