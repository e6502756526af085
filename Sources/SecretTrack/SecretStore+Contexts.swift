import Replication
import SQLite

/// Write contexts of secrets (docs/concurrent-edits.md): each stored body and each deletion
/// keeps what its writer had seen of the reference, so a device whose body loses to a version
/// written without knowing it keeps its own as a conflict, whether or not it was uploaded.
extension SecretStore {
    static let contextsMigration = Migration("secrets: write contexts; conflict ids never reused") { db in
        try db.execute("""
            ALTER TABLE secret_items ADD COLUMN context BLOB;
            ALTER TABLE deletion_markers ADD COLUMN context BLOB;
            CREATE TABLE secret_conflicts_next (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                reference TEXT NOT NULL, availability TEXT NOT NULL, incarnation INTEGER NOT NULL,
                version_clock INTEGER NOT NULL, version_device TEXT NOT NULL, sealed_body BLOB NOT NULL,
                winner_deleted INTEGER NOT NULL, winner_incarnation INTEGER NOT NULL,
                winner_clock INTEGER NOT NULL, winner_device TEXT NOT NULL,
                recorded_at INTEGER NOT NULL);
            INSERT INTO secret_conflicts_next SELECT id, reference, availability, incarnation, version_clock, version_device, sealed_body,
                winner_deleted, winner_incarnation, winner_clock, winner_device, recorded_at FROM secret_conflicts;
            DROP TABLE secret_conflicts;
            ALTER TABLE secret_conflicts_next RENAME TO secret_conflicts;
            """)
    }

    /// The context a new write of `reference` at `version` carries: what this device holds of
    /// it — its body's context, or its newest deletion's — with the new write added.
    static func writeContext(_ db: Connection, _ reference: String, version: RecordVersion) throws -> VersionContext {
        try heldContext(db, reference).advanced(to: version)
    }

    /// What this device holds of `reference`: the present body's context, else the newest
    /// deletion's (a deletion from elsewhere is known only by its version), else nothing.
    static func heldContext(_ db: Connection, _ reference: String) throws -> VersionContext {
        if let held = try db.queryFirst("SELECT context, version_clock, version_device FROM secret_items WHERE reference = ?", [reference], {
            decoded($0.blob(0), version: RecordVersion(clock: $0.uint64(1), device: $0.text(2) ?? ""))
        }) {
            return held
        }
        return try db.queryFirst("SELECT context, version_clock, version_device FROM deletion_markers WHERE reference = ? ORDER BY incarnation DESC LIMIT 1", [reference]) {
            decoded($0.blob(0), version: RecordVersion(clock: $0.uint64(1), device: $0.text(2) ?? ""))
        } ?? VersionContext()
    }

    /// A context as its column stores it: NULL for the version seen alone.
    static func stored(_ context: VersionContext, version: RecordVersion) -> [UInt8]? {
        context.isOnly(version) ? nil : context.encoded
    }

    /// A context column read back (a damaged one reads as the version seen alone).
    static func decoded(_ blob: [UInt8]?, version: RecordVersion) -> VersionContext {
        guard let blob else { return VersionContext(only: version) }
        var reader = ByteReader(blob)
        return (try? VersionContext.decode(from: &reader)) ?? VersionContext(only: version)
    }
}
