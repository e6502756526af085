import Replication
import SQLite
import Sodium

/// Bodies kept outside `secrets.sqlite` (the `keyring` backend).
///
/// The row of such a body holds a placeholder — a tag and the digest of the sealed bytes — and
/// the bytes live under the row's `BodyKey` (reference, incarnation, version). A new body is
/// stored outside inside the write transaction that commits its row, so a crash leaves at most
/// a stray copy. Triggers note every placed body a transaction replaces or removes; after the
/// commit those are removed outside. `sweepExternalBodies`, run on every unlock, removes
/// whatever no row names: strays, and a deleted incarnation's item that reappeared (a keyring
/// restored from a backup) — which is never used meanwhile, because only a row's own key and
/// digest are ever read.
extension SecretStore {
    static let placeholderTag: [UInt8] = [0x4B, 0x52, 0x01]
    private static let digestDomain = Array("credvault/v1/external-body".utf8)

    static let externalBodiesMigration = Migration("secrets: what to remove from the keyring after a commit") { db in
        try db.execute("""
            CREATE TABLE external_discards (
                reference TEXT NOT NULL, incarnation INTEGER NOT NULL,
                version_clock INTEGER NOT NULL, version_device TEXT NOT NULL,
                PRIMARY KEY (reference, incarnation, version_clock, version_device))
            """)
    }

    /// The triggers that note replaced and removed bodies, created only in a store with the
    /// keyring backend (a store in `secrets.sqlite` has no placeholder rows, and every insert
    /// would pay for them).
    static func createDiscardTriggers(_ db: Connection) throws {
        try db.execute("""
            CREATE TRIGGER IF NOT EXISTS secret_items_external_delete AFTER DELETE ON secret_items
                WHEN substr(old.sealed_body, 1, 3) = X'4B5201'
            BEGIN
                INSERT OR IGNORE INTO external_discards VALUES (old.reference, old.incarnation, old.version_clock, old.version_device);
            END;
            CREATE TRIGGER IF NOT EXISTS secret_items_external_update AFTER UPDATE ON secret_items
                WHEN substr(old.sealed_body, 1, 3) = X'4B5201' AND (new.incarnation IS NOT old.incarnation
                    OR new.version_clock IS NOT old.version_clock OR new.version_device IS NOT old.version_device
                    OR new.sealed_body IS NOT old.sealed_body)
            BEGIN
                INSERT OR IGNORE INTO external_discards VALUES (old.reference, old.incarnation, old.version_clock, old.version_device);
            END;
            -- INSERT OR REPLACE removes the old row without firing delete triggers.
            CREATE TRIGGER IF NOT EXISTS secret_items_external_replace BEFORE INSERT ON secret_items
            BEGIN
                INSERT OR IGNORE INTO external_discards
                    SELECT reference, incarnation, version_clock, version_device FROM secret_items
                    WHERE reference = new.reference AND substr(sealed_body, 1, 3) = X'4B5201'
                      AND NOT (incarnation = new.incarnation AND version_clock = new.version_clock AND version_device = new.version_device);
            END;
            """)
    }

    func key(_ item: SecretItem) -> BodyKey {
        BodyKey(device: deviceID, reference: item.reference, incarnation: item.incarnation, version: item.version)
    }

    /// What the `sealed_body` column holds for `sealed` as the body of `item`: the bytes
    /// themselves, or — with the keyring backend — a placeholder, once they are stored outside.
    /// Called inside the write transaction that stores the row.
    func placeBody(_ sealed: [UInt8], of item: SecretItem, _ db: Connection) throws -> [UInt8] {
        guard usesExternalBodies else { return sealed }
        let key = key(item)
        try external().store(sealed, for: key)
        // A removal still waiting for this key (the keyring was unreachable after an earlier
        // commit) would take the body this row is about to name.
        try db.run("DELETE FROM external_discards WHERE reference = ? AND incarnation = ? AND version_clock = ? AND version_device = ?",
                   [key.reference, key.incarnation, key.version.clock, key.version.device])
        return Self.placeholderTag + GenericHash.hash(sealed, domain: Self.digestDomain)
    }

    /// The sealed body a row's column stands for; nil when it is kept outside and not there, or
    /// what is there is not what the row names.
    func sealedBody(_ column: [UInt8], of item: SecretItem) throws -> [UInt8]? {
        guard Self.isPlaceholder(column) else { return column }
        guard let sealed = try external().load(key(item)),
              Self.placeholderTag + GenericHash.hash(sealed, domain: Self.digestDomain) == column else { return nil }
        return sealed
    }

    static func isPlaceholder(_ column: [UInt8]) -> Bool { column.count == 35 && column.starts(with: placeholderTag) }

    /// Removes, outside, the bodies committed transactions replaced or removed. Best effort: what
    /// cannot be removed now stays noted, and the next sweep takes it anyway.
    func removeDiscardedBodies() {
        guard backend == .keyring, let external = externalBodies else { return }
        // Most writes replace or remove nothing: a read, without the write lock, says so.
        let pending = (try? queue.read { try $0.queryFirst("SELECT EXISTS (SELECT 1 FROM external_discards)") { $0.bool(0) } }) ?? true
        guard pending else { return }
        try? queue.write { db in
            let discarded = try db.query("SELECT reference, incarnation, version_clock, version_device FROM external_discards") {
                BodyKey(device: deviceID, reference: $0.text(0) ?? "", incarnation: $0.int64(1), version: RecordVersion(clock: $0.uint64(2), device: $0.text(3) ?? ""))
            }
            for key in discarded {
                try external.remove(key)
                try db.run("DELETE FROM external_discards WHERE reference = ? AND incarnation = ? AND version_clock = ? AND version_device = ?",
                           [key.reference, key.incarnation, key.version.clock, key.version.device])
            }
        }
    }

    /// Removes every body kept outside for this store that no row names now. Returns how many.
    /// The keyring is searched before the write lock is taken (a slow keyring must not hold up
    /// other writers); under the lock, an item is removed only if no row names it then — a body
    /// stored by a writer that held the lock meanwhile is named by its committed row by then.
    @discardableResult
    public func sweepExternalBodies() throws -> Int {
        guard backend == .keyring else { return 0 }
        let external = try external()
        let stored = try external.keys(device: deviceID)
        return try write("clean up the secrets kept in the desktop keyring") { db in
            let named = Set(try db.query(Self.selectItem + " WHERE substr(sealed_body, 1, 3) = X'4B5201'") { key(Self.item($0)) })
            var removed = 0
            for stored in stored where !named.contains(stored) {
                try external.remove(stored)
                removed += 1
            }
            try db.run("DELETE FROM external_discards")
            return removed
        }
    }

    var usesExternalBodies: Bool { backend == .keyring }

    private func external() throws -> any ExternalBodyStore {
        guard let externalBodies else {
            throw SecretError(.storage, "This vault keeps its secrets in the desktop keyring, which this program was not given.")
        }
        return externalBodies
    }
}
