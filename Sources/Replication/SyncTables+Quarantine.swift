import SQLite
import Sodium

/// Quarantine's bounds and second chances: storage capped per zone, and objects quarantined
/// whole read again once their bytes change.
extension SyncTables {
    public static let quarantineBoundsMigration = Migration("replication: quarantined objects read again when their bytes change") { db in
        try db.execute("ALTER TABLE replication_quarantine ADD COLUMN object_digest BLOB")
        // Objects quarantined whole before this build: an empty digest matches no bytes, so
        // each is read once more.
        try db.execute("UPDATE replication_quarantine SET object_digest = X'' WHERE envelope IS NULL AND record_name LIKE 'zones/%'")
    }

    /// At most this many entries and bytes are kept per zone (each database holds one zone);
    /// the oldest go first, and are counted.
    public static let quarantineLimit = (entries: 10_000, bytes: 64 << 20)

    /// Drops the oldest entries past `quarantineLimit`, adding how many to the zone's count of
    /// dropped entries. Called at the end of each transaction that quarantines.
    static func enforceQuarantineLimit(_ db: Connection, zone: String) throws {
        guard let (entries, bytes) = try db.queryFirst("SELECT count(*), coalesce(sum(length(bytes)), 0) FROM replication_quarantine", [], { ($0.int(0), $0.int(1)) }),
              entries > quarantineLimit.entries || bytes > quarantineLimit.bytes else { return }
        // Newest first, keep while both totals fit; everything older goes.
        var keptEntries = 0, keptBytes = 0
        var cutoff: Int64?
        for (id, size) in try db.query("SELECT id, length(bytes) FROM replication_quarantine ORDER BY id DESC", [], { ($0.int64(0), $0.int(1)) }) {
            guard keptEntries < quarantineLimit.entries, keptBytes + size <= quarantineLimit.bytes else { cutoff = id; break }
            keptEntries += 1
            keptBytes += size
        }
        guard let cutoff else { return }
        try db.run("DELETE FROM replication_quarantine WHERE id <= ?", [cutoff])
        var count = ByteWriter()
        count.u64(try quarantineDropped(db, zone: zone) + UInt64(db.changes))
        try setValue(db, zone: zone, key: droppedKey, count.bytes)
    }

    private static let droppedKey = "quarantine-dropped"

    /// How many quarantined entries were dropped to keep within `quarantineLimit`.
    public static func quarantineDropped(_ db: Connection, zone: String) throws -> UInt64 {
        guard let bytes = try value(db, zone: zone, key: droppedKey) else { return 0 }
        var reader = ByteReader(bytes)
        return (try? reader.u64()) ?? 0
    }

    /// The digest an object quarantined whole is remembered by: its bytes, and the batch format
    /// this build reads, so an upgrade that can read a newer format reads it again too.
    public static func objectDigest(_ bytes: [UInt8]) -> [UInt8] {
        GenericHash.hash(bytes + Array("credvault/quarantined-object/\(BatchCodec.formatVersion)".utf8))
    }

    /// Objects quarantined whole, to be read again: their entry, name and remembered digest.
    public static func quarantinedObjects(_ db: Connection) throws -> [(id: Int64, name: String, digest: [UInt8])] {
        try db.query("SELECT id, record_name, object_digest FROM replication_quarantine WHERE object_digest IS NOT NULL ORDER BY id") {
            ($0.int64(0), $0.text(1) ?? "", $0.blob(2) ?? [])
        }
    }

    public static func quarantineSummary(_ db: Connection, zone: String) throws -> QuarantineSummary {
        QuarantineSummary(unreadableObjects: try quarantinedObjects(db).map(\.name), dropped: try quarantineDropped(db, zone: zone))
    }

    /// Remembers new bytes of a quarantined object that still do not open, so the same bytes
    /// are not opened again.
    public static func noteQuarantinedObject(_ db: Connection, id: Int64, digest: [UInt8], reason: String) throws {
        try db.run("UPDATE replication_quarantine SET object_digest = ?, reason = ? WHERE id = ?", [digest, reason, id])
    }
}
