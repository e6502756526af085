import Replication
import SQLite

/// `ZoneStore.undoRevoked` and `republishRevoked` for secret references. Device-only items are
/// never touched.
extension SecretZone {
    public func undoRevoked(_ device: String, versions: [String: Set<RecordVersion>]) throws {
        try store.write("undo what revoked \(device) wrote") { db in
            let pending = Set(try db.query("SELECT record_name FROM replication_journal") { $0.text(0) ?? "" })
            for (reference, brought) in versions where !pending.contains(reference) {
                var undone: Set<RecordVersion> = []
                if let item = try db.queryFirst(SecretStore.selectItem + " WHERE reference = ? AND availability = 'syncable'", [reference], { SecretStore.item($0) }),
                   brought.contains(item.version), try !SyncTables.relayed(db, zone: zone, recordName: reference, version: item.version) {
                    try db.run("DELETE FROM secret_items WHERE reference = ?", [reference])
                    undone.insert(item.version)
                }
                for version in brought where try !SyncTables.relayed(db, zone: zone, recordName: reference, version: version) {
                    try db.run("DELETE FROM deletion_markers WHERE reference = ? AND local_only = 0 AND version_clock = ? AND version_device = ?",
                               [reference, version.clock, version.device])
                    if db.changes > 0 { undone.insert(version) }
                }
                if !undone.isEmpty, try !reinstateOwnRemoval(db, reference, beatenBy: undone) {
                    try reinstateOwnLoser(db, reference, beatenBy: undone)
                }
            }
            try SyncTables.undid(db, zone: zone, device: device)
        }
    }

    /// This device's own deletion of `reference`, not sent yet, that a version just undone
    /// replaced (`ReplacedRemovals`) stands again and is sent — unless a later life stands or a
    /// deletion of its life or a later one remains. Returns whether one did.
    private func reinstateOwnRemoval(_ db: Connection, _ reference: String, beatenBy undone: Set<RecordVersion>) throws -> Bool {
        guard let own = try ReplacedRemovals.take(db, recordName: reference, beatenBy: undone),
              try db.queryFirst("SELECT 1 FROM secret_items WHERE reference = ? AND incarnation > ?", [reference, own.incarnation], { _ in true }) == nil,
              try db.queryFirst("SELECT 1 FROM deletion_markers WHERE reference = ? AND incarnation >= ? AND local_only = 0", [reference, own.incarnation], { _ in true }) == nil
        else { return false }
        try db.run("INSERT OR REPLACE INTO deletion_markers (reference, incarnation, version_clock, version_device, local_only, context) VALUES (?, ?, ?, ?, 0, ?)",
                   [reference, own.incarnation, own.version.clock, own.version.device, SecretStore.stored(own.context, version: own.version)])
        try db.run("DELETE FROM secret_items WHERE reference = ? AND incarnation <= ?", [reference, own.incarnation])
        try ReplacedRemovals.restore(db, recordName: reference, kind: SecretStore.itemKind, own)
        return true
    }

    /// This device's own body of `reference` that lost to a version just undone stands again,
    /// as it was (incarnation, version, write context, sealed body), and is sent: it may never
    /// have left this device, so the history the undo reads again cannot bring it back, and
    /// with the undone version gone nothing beats it any more. Not when something else stands
    /// or a deletion that remains ends its incarnation; the kept conflict then stays.
    private func reinstateOwnLoser(_ db: Connection, _ reference: String, beatenBy undone: Set<RecordVersion>) throws {
        let kept = try db.query("""
            SELECT id, availability, incarnation, version_clock, version_device, sealed_body, context, winner_clock, winner_device
            FROM secret_conflicts WHERE reference = ? ORDER BY version_clock DESC
            """, [reference]) { row in
            (id: row.int64(0), item: SecretItem(reference: reference, availability: Availability(rawValue: row.text(1) ?? "") ?? .syncable, pinned: false,
                                                incarnation: row.int64(2), version: RecordVersion(clock: row.uint64(3), device: row.text(4) ?? "")),
             sealed: row.blob(5) ?? [], context: row.blob(6), winner: RecordVersion(clock: row.uint64(7), device: row.text(8) ?? ""))
        }
        guard let loser = kept.first(where: { undone.contains($0.winner) && $0.item.version.device == deviceID }),
              try db.queryFirst("SELECT 1 FROM secret_items WHERE reference = ?", [reference], { _ in true }) == nil,
              try db.queryFirst("SELECT 1 FROM deletion_markers WHERE reference = ? AND incarnation >= ?", [reference, loser.item.incarnation], { _ in true }) == nil
        else { return }
        let item = loser.item
        try db.run("""
            INSERT INTO secret_items (reference, availability, pinned, incarnation, version_clock, version_device, sealed_body, context)
            VALUES (?, ?, 0, ?, ?, ?, ?, ?)
            """, [reference, item.availability.rawValue, item.incarnation, item.version.clock, item.version.device,
                  try store.placeBody(loser.sealed, of: item, db), loser.context])
        if item.availability == .syncable {
            try Journal.record(db, JournalEntry(recordName: reference, kind: SecretStore.itemKind, version: item.version, deleted: false, incarnation: item.incarnation))
        }
        try db.run("DELETE FROM secret_conflicts WHERE id = ?", [loser.id])
        // Sealed in the epoch it was written in: the next unlock's reseal moves it to the newest.
        try db.run("DELETE FROM secret_meta WHERE key = 'resealed_epoch'")
    }

    public func republishRevoked(_ device: String, records: [String], inspectedThrough: UInt64) throws {
        try store.write("send again what revoked \(device) touched") { db in
            for reference in records {
                if let item = try db.queryFirst(SecretStore.selectItem + " WHERE reference = ? AND availability = 'syncable'", [reference], { SecretStore.item($0) }) {
                    try Journal.record(db, JournalEntry(recordName: reference, kind: SecretStore.itemKind, version: item.version, deleted: false,
                                                        incarnation: item.incarnation))
                } else if let (incarnation, clock, writer) = try db.queryFirst("""
                    SELECT incarnation, version_clock, version_device FROM deletion_markers WHERE reference = ? AND local_only = 0
                    ORDER BY incarnation DESC LIMIT 1
                    """, [reference], { ($0.int64(0), $0.uint64(1), $0.text(2) ?? "") }) {
                    try Journal.record(db, JournalEntry(recordName: reference, kind: SecretStore.itemKind, version: RecordVersion(clock: clock, device: writer),
                                                        deleted: true, incarnation: incarnation))
                }
            }
            try SyncTables.inspected(db, zone: zone, device: device, through: inspectedThrough)
        }
    }
}
