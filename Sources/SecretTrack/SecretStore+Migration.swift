import Replication
import SQLite
import Sodium

extension SecretStore {
    static let migrationCopiesMigration = Migration("secrets: device-only copies kept until the remote copy is verified") { db in
        try db.execute("""
            CREATE TABLE migration_copies (
                reference TEXT PRIMARY KEY, incarnation INTEGER NOT NULL,
                version_clock INTEGER NOT NULL, version_device TEXT NOT NULL, sealed_body BLOB NOT NULL,
                sequence INTEGER)
            """)
    }

    /// Makes every device-only item that is not pinned syncable: opened with the device key,
    /// sealed again under the vault key with a new version (and checked to open to the same
    /// bytes), and journaled — each in one transaction, so an item is at every instant either
    /// still device-only or syncable with its upload intent. The device-only body is kept beside
    /// it until the remote is verified to hold the syncable one (`SecretZone.verifyMigrations`).
    /// Scans only the (normally empty) index of such items, so running it on every unlock is
    /// cheap. Returns the references migrated. Needs the store unlocked.
    @discardableResult
    public func migrateDeviceOnlyItems() throws -> [String] {
        let keys = try unlockedKeys()
        let references = try awaitingMigration()
        var migrated: [String] = []
        for reference in references {
            let done = try write("migrate \(reference)") { db -> Bool in
                guard case (.present(let item), let column?) = try state(db, reference), item.availability == .deviceOnly, !item.pinned,
                      let sealed = try sealedBody(column, of: item) else { return false }
                let body: SecretBytes
                do {
                    body = try BodySeal.open(sealed, item: item, keys: keys)
                } catch {
                    // A body that does not open stays where it is; read reports it.
                    return false
                }
                let version = try LocalClock.tick(db, device: deviceID, skew: clockSkew.withLock { $0 })
                let syncable = SecretItem(reference: reference, availability: .syncable, pinned: false, incarnation: item.incarnation, version: version)
                let resealed = try BodySeal.seal(body, item: syncable, keys: keys)
                guard try BodySeal.open(resealed, item: syncable, keys: keys) == body else {
                    throw SecretError(.authenticationFailed, "Sealing \(reference) under the vault key did not give back the same secret; it stays device-only.")
                }
                try db.run("""
                    INSERT OR REPLACE INTO migration_copies (reference, incarnation, version_clock, version_device, sealed_body, sequence)
                    VALUES (?, ?, ?, ?, ?, NULL)
                    """, [reference, item.incarnation, item.version.clock, item.version.device, sealed])
                let written = try Self.writeContext(db, reference, version: version)
                try db.run("UPDATE secret_items SET availability = 'syncable', version_clock = ?, version_device = ?, sealed_body = ?, context = ? WHERE reference = ?",
                           [version.clock, version.device, try placeBody(resealed, of: syncable, db), Self.stored(written, version: version), reference])
                try Journal.record(db, JournalEntry(recordName: reference, kind: Self.itemKind, version: version, deleted: false, incarnation: item.incarnation))
                return true
            }
            if done { migrated.append(reference) }
        }
        return migrated
    }

    /// Device-only items that are not pinned: what the next migration picks up. Needs no key.
    public func awaitingMigration() throws -> [String] {
        try read("list items awaiting migration") { db in
            try db.query("SELECT reference FROM secret_items INDEXED BY secret_items_local_unpinned WHERE availability = 'deviceOnly' AND pinned = 0 ORDER BY reference") { $0.text(0) ?? "" }
        }
    }

    /// Migrated items whose device-only copy is still kept, with the sequence of the object
    /// their syncable body was published in (nil: not sent yet).
    public func awaitingVerification() throws -> [(reference: String, sequence: UInt64?)] {
        try read("list migrations awaiting verification") { db in
            try db.query("SELECT reference, sequence FROM migration_copies ORDER BY reference") { ($0.text(0) ?? "", $0.isNull(1) ? nil : $0.uint64(1)) }
        }
    }

    /// Drops the device-only copy of `reference` if the body stored now is exactly `payload` at
    /// `version` (what the remote was read back to hold). Returns whether it was dropped.
    /// Sends the syncable body of a migrated item again: the object it went out in is gone from
    /// the remote (collected, say, while this device counted as retired), so it can never be
    /// read back. The copy stays until the new object is.
    func resendMigrated(_ reference: String) throws {
        try write("send \(reference) again for verification") { db in
            guard case (.present(let item), _) = try state(db, reference), item.availability == .syncable else { return }
            try Journal.record(db, JournalEntry(recordName: reference, kind: Self.itemKind, version: item.version, deleted: false, incarnation: item.incarnation))
            try db.run("UPDATE migration_copies SET sequence = NULL WHERE reference = ?", [reference])
        }
    }

    func dropMigrationCopy(_ reference: String, verifiedBody payload: [UInt8], version: RecordVersion) throws -> Bool {
        try write("drop the device-only copy of \(reference)") { db in
            guard case (.present(let item), let column?) = try state(db, reference), item.availability == .syncable,
                  item.version == version, try sealedBody(column, of: item) == payload else { return false }
            try db.run("DELETE FROM migration_copies WHERE reference = ?", [reference])
            return db.changes > 0
        }
    }
}
