import Replication
import SQLite

extension SecretStore {
    /// How long a body that no record names is kept before it is collected: long enough for a
    /// config change delayed by a sync tool, an offline device or a pending upgrade to arrive.
    public static let orphanGraceDays: Int64 = 30

    static let localMarkersMigration = Migration("secrets: deletion markers that stay on this device") { db in
        try db.execute("ALTER TABLE deletion_markers ADD COLUMN local_only INTEGER NOT NULL DEFAULT 0")
    }

    static let orphanSightingsMigration = Migration("secrets: when each unreferenced body was first seen") { db in
        try db.execute("CREATE TABLE orphan_sightings (reference TEXT PRIMARY KEY, first_seen INTEGER NOT NULL)")
    }

    /// The reference keys of every body stored here. Needs no key.
    /// Every stored reference, sorted by its bytes.
    public func references() throws -> [String] {
        try read("list secret references") { db in try db.query("SELECT reference FROM secret_items ORDER BY reference") { $0.text(0) ?? "" } }
    }

    /// Records which bodies no record names now (`orphans`) and collects those first seen so
    /// more than the grace period before `now` (Unix seconds): the body, its pending upload and
    /// any migration copy go, on this device only — without a deletion marker, because the
    /// record naming it may still be on its way, and a travelling deletion could take the
    /// secret from a device where it is in use. A body named again is no longer an orphan.
    /// One transaction. Returns the references collected.
    @discardableResult
    public func collectOrphans(_ orphans: Set<String>, now: Int64) throws -> [String] {
        try write("collect unreferenced secrets") { db in
            let sighted = Dictionary(try db.query("SELECT reference, first_seen FROM orphan_sightings") { ($0.text(0) ?? "", $0.int64(1)) },
                                     uniquingKeysWith: min)
            for reference in sighted.keys where !orphans.contains(reference) {
                try db.run("DELETE FROM orphan_sightings WHERE reference = ?", [reference])
            }
            var collected: [String] = []
            for reference in orphans.sorted() {
                guard let since = sighted[reference] else {
                    try db.run("INSERT INTO orphan_sightings (reference, first_seen) VALUES (?, ?)", [reference, now])
                    continue
                }
                guard now - since > Self.orphanGraceDays * 86_400 else { continue }
                for table in ["secret_items", "migration_copies", "orphan_sightings"] {
                    try db.run("DELETE FROM \(table) WHERE reference = ?", [reference])
                }
                try Journal.discard(db, recordName: reference)
                collected.append(reference)
            }
            try noteOrphanCheck(db, now: now)
            return collected
        }
    }
}

extension SecretStore {
    /// Whether a day has passed since the last `collectOrphans` (checking costs a pass over every
    /// reference, so sync does it daily rather than every run).
    public func orphanCheckDue(now: Int64) throws -> Bool {
        let last = try read("read the last orphan check") { db in
            try db.queryFirst("SELECT value FROM secret_meta WHERE key = 'orphans_checked_at'") { Int64($0.text(0) ?? "") } ?? nil
        }
        return last.map { now - $0 >= 86_400 || now < $0 } ?? true
    }

    /// Counts the check due now as done without making it: used when this device's state just
    /// arrived whole from a snapshot (a join), where nothing unreferenced is of its own making
    /// and a full pass over every reference would only slow the join down.
    public func postponeOrphanCheck(now: Int64) throws {
        try write("postpone the orphan check") { db in try noteOrphanCheck(db, now: now) }
    }

    func noteOrphanCheck(_ db: Connection, now: Int64) throws {
        try db.run("INSERT OR REPLACE INTO secret_meta (key, value) VALUES ('orphans_checked_at', ?)", [String(now)])
    }
}
