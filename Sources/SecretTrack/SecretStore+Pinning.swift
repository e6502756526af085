import Replication
import SQLite
import Sodium

extension SecretStore {
    /// Pins `reference` to this device. A syncable body is sealed again under the device key as
    /// a new incarnation, and the syncable incarnation is deleted everywhere else through a
    /// deletion marker that travels (a proper tombstone); a device-only body is just pinned, so
    /// the every-launch migration leaves it alone. One transaction. A syncable item needs the
    /// store unlocked.
    @discardableResult
    public func pinDeviceOnly(_ reference: String) throws -> SecretItem {
        let keys = try unlockedKeys()
        return try write("pin \(reference) to this device") { db in
            let (current, column) = try state(db, reference)
            let item = try Self.presentItem(current, reference)
            guard item.availability == .syncable else {
                try db.run("UPDATE secret_items SET pinned = 1 WHERE reference = ?", [reference])
                return SecretItem(reference: reference, availability: .deviceOnly, pinned: true, incarnation: item.incarnation, version: item.version)
            }
            guard let sealed = try sealedBody(column ?? [], of: item) else {
                throw SecretError(.authenticationFailed, "The desktop keyring no longer holds the secret \(reference) as this vault stored it.")
            }
            let body = try BodySeal.open(sealed, item: item, keys: keys)
            let deletion = try LocalClock.tick(db, device: deviceID, skew: clockSkew.withLock { $0 })
            let context = try Self.writeContext(db, reference, version: deletion)
            try db.run("INSERT OR REPLACE INTO deletion_markers (reference, incarnation, version_clock, version_device, context) VALUES (?, ?, ?, ?, ?)",
                       [reference, item.incarnation, deletion.clock, deletion.device, Self.stored(context, version: deletion)])
            try RemovalLog.store(db, recordName: reference, incarnation: item.incarnation, version: deletion, context: context)
            try Journal.record(db, JournalEntry(recordName: reference, kind: Self.itemKind, version: deletion, deleted: true, incarnation: item.incarnation))
            let version = try LocalClock.tick(db, device: deviceID, skew: clockSkew.withLock { $0 })
            let pinned = SecretItem(reference: reference, availability: .deviceOnly, pinned: true, incarnation: try Self.incarnation(after: item.incarnation, of: reference), version: version)
            try db.run("""
                INSERT OR REPLACE INTO secret_items (reference, availability, pinned, incarnation, version_clock, version_device, sealed_body)
                VALUES (?, 'deviceOnly', 1, ?, ?, ?, ?)
                """, [reference, pinned.incarnation, version.clock, version.device,
                      try placeBody(try BodySeal.seal(body, item: pinned, keys: keys), of: pinned, db)])
            try db.run("DELETE FROM migration_copies WHERE reference = ?", [reference])
            return pinned
        }
    }

    /// Lets a pinned device-only item become syncable again (the migration does that once a
    /// remote is bound). Needs no key.
    @discardableResult
    public func unpin(_ reference: String) throws -> SecretItem {
        try write("unpin \(reference)") { db in
            let item = try Self.presentItem(try state(db, reference).state, reference)
            try db.run("UPDATE secret_items SET pinned = 0 WHERE reference = ?", [reference])
            return SecretItem(reference: reference, availability: item.availability, pinned: false, incarnation: item.incarnation, version: item.version)
        }
    }
}
