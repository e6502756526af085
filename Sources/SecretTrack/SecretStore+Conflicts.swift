import Replication
import SQLite
import Sodium

extension SecretStore {
    /// How long a losing version is kept for `conflicts restore`.
    public static let conflictRetentionDays: Int64 = 90

    static let conflictsMigration = Migration("secrets: losing versions kept as conflicts") { db in
        try db.execute("""
            CREATE TABLE secret_conflicts (
                id INTEGER PRIMARY KEY,
                reference TEXT NOT NULL, availability TEXT NOT NULL, incarnation INTEGER NOT NULL,
                version_clock INTEGER NOT NULL, version_device TEXT NOT NULL, sealed_body BLOB NOT NULL,
                winner_deleted INTEGER NOT NULL, winner_incarnation INTEGER NOT NULL,
                winner_clock INTEGER NOT NULL, winner_device TEXT NOT NULL,
                recorded_at INTEGER NOT NULL)
            """)
    }

    /// A kept version's write context (what it had seen), so an undo can put it back as it was.
    static let conflictContextsMigration = Migration("secrets: kept versions keep their write context") { db in
        try db.execute("ALTER TABLE secret_conflicts ADD COLUMN context BLOB")
    }

    private static let selectConflict = """
        SELECT id, reference, availability, incarnation, version_clock, version_device,
               winner_deleted, winner_incarnation, winner_clock, winner_device, recorded_at, sealed_body, context FROM secret_conflicts
        """

    /// Keeps `lost` (sealed exactly as it was stored, with its write context) as beaten by
    /// `winner`; called by the merge inside its transaction, before the body is replaced or removed.
    static func keepConflict(_ db: Connection, lost: SecretItem, sealed: [UInt8], context: VersionContext?, winner: Envelope) throws {
        try db.run("""
            INSERT INTO secret_conflicts (reference, availability, incarnation, version_clock, version_device, sealed_body,
                                          winner_deleted, winner_incarnation, winner_clock, winner_device, recorded_at, context)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [lost.reference, lost.availability.rawValue, lost.incarnation, lost.version.clock, lost.version.device, sealed,
                  winner.deleted, winner.incarnation, winner.version.clock, winner.version.device,
                  Int64(HybridLogicalClock.wallMilliseconds() / 1_000), context.flatMap { stored($0, version: lost.version) }])
    }

    /// The kept losing versions, oldest first.
    public func conflicts() throws -> [SecretConflict] {
        try read("list conflicts") { db in try db.query(Self.selectConflict + " ORDER BY id") { Self.conflict($0) } }
    }

    /// Stores the kept version `id` again as a new incarnation of its reference — one that wins
    /// over every version and deletion before it, and syncs like any change when syncable. The
    /// entry stays until `dropConflict` (the caller first links the config back to it), so a
    /// crash in between loses nothing. Needs the store unlocked.
    @discardableResult
    public func restoreConflict(_ id: Int64) throws -> SecretItem {
        let keys = try unlockedKeys()
        return try write("restore conflict \(id)") { db in
            let (conflict, body) = try openConflict(db, id, keys: keys)
            let lost = conflict.lost
            let current = try state(db, lost.reference)
            var incarnation = max(lost.incarnation, conflict.winnerIncarnation, try lastIncarnation(db, lost.reference) ?? 0)
            if case .present(let item) = current.state { incarnation = max(incarnation, item.incarnation) }
            let version = try LocalClock.tick(db, device: deviceID, skew: clockSkew.withLock { $0 })
            let item = SecretItem(reference: lost.reference, availability: lost.availability, pinned: false, incarnation: try Self.incarnation(after: incarnation, of: lost.reference), version: version)
            // Made after seeing what beat the kept version, so no device keeps that as its conflict.
            let written = try Self.writeContext(db, lost.reference, version: version).advanced(to: conflict.winner)
            try db.run("""
                INSERT OR REPLACE INTO secret_items (reference, availability, pinned, incarnation, version_clock, version_device, sealed_body, context)
                VALUES (?, ?, 0, ?, ?, ?, ?, ?)
                """, [item.reference, item.availability.rawValue, item.incarnation, version.clock, version.device,
                      try placeBody(try BodySeal.seal(body, item: item, keys: keys), of: item, db),
                      Self.stored(written, version: version)])
            if item.availability == .syncable {
                try Journal.record(db, JournalEntry(recordName: item.reference, kind: Self.itemKind, version: version, deleted: false, incarnation: item.incarnation))
            }
            return item
        }
    }

    /// After an undo removed `undone` versions of `reference` (a revoked device's, taken in past
    /// its cutoff): the newest kept version that lost to one of them stands again as it was
    /// (incarnation, version, write context, sealed body) and is sent. It may never have left
    /// this device, so the history the undo reads again cannot bring it back, and with the
    /// undone version gone nothing beats it any more. Not when something else stands or a
    /// deletion that remains ends its incarnation: the conflict then stays. Called inside the
    /// undo's transaction.
    func reinstateConflict(_ db: Connection, _ reference: String, beatenBy undone: Set<RecordVersion>) throws {
        let kept = try db.query(Self.selectConflict + " WHERE reference = ? ORDER BY version_clock DESC", [reference]) {
            (conflict: Self.conflict($0), sealed: $0.blob(11) ?? [], context: $0.blob(12))
        }
        guard let loser = kept.first(where: { undone.contains($0.conflict.winner) }),
              try db.queryFirst("SELECT 1 FROM secret_items WHERE reference = ?", [reference], { _ in true }) == nil,
              try db.queryFirst("SELECT 1 FROM deletion_markers WHERE reference = ? AND incarnation >= ?", [reference, loser.conflict.lost.incarnation],
                                { _ in true }) == nil
        else { return }
        let item = loser.conflict.lost
        try db.run("""
            INSERT INTO secret_items (reference, availability, pinned, incarnation, version_clock, version_device, sealed_body, context)
            VALUES (?, ?, 0, ?, ?, ?, ?, ?)
            """, [reference, item.availability.rawValue, item.incarnation, item.version.clock, item.version.device,
                  try placeBody(loser.sealed, of: item, db), loser.context])
        if item.availability == .syncable {
            try Journal.record(db, JournalEntry(recordName: reference, kind: Self.itemKind, version: item.version, deleted: false, incarnation: item.incarnation))
        }
        try db.run("DELETE FROM secret_conflicts WHERE id = ?", [loser.conflict.id])
        // Sealed in the epoch it was written in, as any body written before this device learnt of
        // a later one: the next unlock's reseal moves it to the newest.
        try db.run("DELETE FROM secret_meta WHERE key = 'resealed_epoch'")
    }

    /// The kept version `id` in the clear (for `conflicts show --reveal`). Needs the store unlocked.
    public func revealConflict(_ id: Int64) throws -> SecretBytes {
        let keys = try unlockedKeys()
        return try read("read conflict \(id)") { db in try openConflict(db, id, keys: keys).body }
    }

    /// The kept version `id` and its body opened, inside the caller's transaction.
    private func openConflict(_ db: Connection, _ id: Int64, keys: VaultKeys) throws -> (conflict: SecretConflict, body: SecretBytes) {
        guard let (conflict, sealed) = try db.queryFirst(Self.selectConflict + " WHERE id = ?", [id], { (Self.conflict($0), $0.blob(11) ?? []) })
        else { throw SecretError(.absent, "There is no conflict \(id).", hint: "List them with: credctl conflicts list") }
        let lost = conflict.lost
        do {
            return (conflict, try BodySeal.open(sealed, item: lost, keys: keys))
        } catch {
            throw SecretError(.authenticationFailed, "The kept version \(id) of \(lost.reference) does not open (damaged, or sealed under a key this vault no longer has).")
        }
    }

    /// Forgets the kept version `id` (restored, or no longer wanted); false if there is none.
    @discardableResult
    public func dropConflict(_ id: Int64) throws -> Bool {
        try write("drop conflict \(id)") { db in
            try db.run("DELETE FROM secret_conflicts WHERE id = ?", [id])
            return db.changes > 0
        }
    }

    /// Collects kept versions older than the retention period; returns how many went.
    @discardableResult
    public func collectExpiredConflicts(now: Int64 = Int64(HybridLogicalClock.wallMilliseconds() / 1_000)) throws -> Int {
        try write("collect expired conflicts") { db in
            try db.run("DELETE FROM secret_conflicts WHERE recorded_at < ?", [now - Self.conflictRetentionDays * 86_400])
            let collected = db.changes
            try ReplacedRemovals.collect(db, before: now - Self.conflictRetentionDays * 86_400)
            return collected
        }
    }

    private static func conflict(_ row: Row) -> SecretConflict {
        SecretConflict(id: row.int64(0),
                       lost: SecretItem(reference: row.text(1) ?? "", availability: Availability(rawValue: row.text(2) ?? "") ?? .syncable, pinned: false,
                                        incarnation: row.int64(3), version: RecordVersion(clock: row.uint64(4), device: row.text(5) ?? "")),
                       winnerDeleted: row.bool(6), winnerIncarnation: row.int64(7), winner: RecordVersion(clock: row.uint64(8), device: row.text(9) ?? ""),
                       recordedAt: row.int64(10))
    }
}
