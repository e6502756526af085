import SQLite

/// The contexts of deletions, for both zones: what a deleting device had seen of the record it
/// deleted, made here or received in a removal envelope (kind `removal`, record name
/// `removal/<record name>`, sent just before the tombstone, which stays format 1 so every build
/// applies a deletion at once). With it a device tells a value of its own that a deletion
/// replaced knowingly from one written without knowing of it, which it keeps as a conflict.
/// See docs/concurrent-edits.md, "Deletions".
public enum RemovalLog {
    /// The format version of removal envelopes.
    public static let formatVersion: UInt16 = 2

    public static let migration = Migration("replication: the contexts of removals") { db in
        try db.execute("""
            CREATE TABLE replication_removals (
                record_name TEXT NOT NULL, incarnation INTEGER NOT NULL,
                version_clock INTEGER NOT NULL, version_device TEXT NOT NULL, context BLOB NOT NULL,
                PRIMARY KEY (record_name, incarnation))
            """)
    }

    /// The context of a deletion at `version` by a device that held values written with
    /// `contexts`: everything it had seen of them, and the deletion itself.
    public static func context(deleting contexts: [VersionContext], at version: RecordVersion) -> VersionContext {
        contexts.reduce(VersionContext()) { $0.joined(with: $1) }.advanced(to: version)
    }

    /// Keeps the context of the deletion `version` of `recordName`'s `incarnation`: one made
    /// here, or one that arrived with its tombstone (`RemovalPairing`) when that applied.
    public static func store(_ db: Connection, recordName: String, incarnation: Int64, version: RecordVersion, context: VersionContext) throws {
        try db.run("""
            INSERT INTO replication_removals (record_name, incarnation, version_clock, version_device, context) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (record_name, incarnation) DO UPDATE SET version_clock = excluded.version_clock,
                version_device = excluded.version_device, context = excluded.context
            """, [recordName, incarnation, version.clock, version.device, context.encoded])
    }

    /// The context of exactly this deletion, if its removal is here.
    public static func context(_ db: Connection, recordName: String, incarnation: Int64, version: RecordVersion) throws -> VersionContext? {
        try db.queryFirst("""
            SELECT context FROM replication_removals
            WHERE record_name = ? AND incarnation = ? AND version_clock = ? AND version_device = ?
            """, [recordName, incarnation, version.clock, version.device]) { decodedContext($0.blob(0)) } ?? nil
    }

    /// A stored context column read back; nil for none (or a damaged one: then the deletion is
    /// judged as one from an older build).
    public static func decodedContext(_ blob: [UInt8]?) -> VersionContext? {
        guard let blob else { return nil }
        var reader = ByteReader(blob)
        return try? VersionContext.decode(from: &reader)
    }

    /// Removals go with the record's tombstones (a record brought back needs none).
    public static func drop(_ db: Connection, recordName: String) throws {
        try db.run("DELETE FROM replication_removals WHERE record_name = ?", [recordName])
    }

    /// The removal envelope a tombstone of this deletion is sent after, if its context is here.
    public static func envelope(_ db: Connection, recordName: String, incarnation: Int64, version: RecordVersion) throws -> Envelope? {
        try context(db, recordName: recordName, incarnation: incarnation, version: version).map {
            envelope(recordName: recordName, incarnation: incarnation, version: version, context: $0)
        }
    }

    public static func envelope(recordName: String, incarnation: Int64, version: RecordVersion, context: VersionContext) -> Envelope {
        Envelope(recordName: Envelope.removalKind + "/" + recordName, kind: Envelope.removalKind, formatVersion: formatVersion,
                 version: version, deleted: false, incarnation: incarnation, payload: context.encoded)
    }

    /// Journal entries as envelopes for one batch of at most `limit`: a deletion goes as its
    /// removal then its tombstone, together (a limit too small for both sends the tombstone
    /// alone); `live` gives a live record's envelope (nil: nothing to send).
    public static func pendingEnvelopes(_ db: Connection, limit: Int, tombstone: (JournalEntry) -> Envelope,
                                        live: (JournalEntry) throws -> Envelope?) throws -> [Envelope] {
        var envelopes: [Envelope] = []
        for entry in try Journal.pending(db, limit: limit) {
            guard entry.deleted else {
                if let envelope = try live(entry) { envelopes.append(envelope) }
                continue
            }
            var deletion = [tombstone(entry)]
            if let removal = try envelope(db, recordName: entry.recordName, incarnation: entry.incarnation, version: entry.version) {
                deletion.insert(removal, at: 0)
            }
            if envelopes.count + deletion.count > limit {
                if !envelopes.isEmpty { break }  // the next batch takes both
                deletion.removeFirst(deletion.count - 1)
            }
            envelopes += deletion
        }
        return envelopes
    }
}
