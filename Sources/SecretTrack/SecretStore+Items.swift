import Replication
import SQLite
import Sodium

extension SecretStore {
    static let itemKind = "secret"
    static let selectItem = "SELECT reference, availability, pinned, incarnation, version_clock, version_device, sealed_body, context FROM secret_items"

    /// What this device knows about `reference`, without opening anything.
    public func state(of reference: String) throws -> SecretState {
        try read("read the state of \(reference)") { db in try state(db, reference).state }
    }

    /// Stores `body` under `reference`. Replacing a present body keeps its incarnation; setting a
    /// reference whose last incarnation was deleted starts the next incarnation.
    @discardableResult
    public func put(_ body: SecretBytes, for reference: String, availability: Availability = .deviceOnly) throws -> SecretItem {
        let keys = try unlockedKeys()
        return try write("store the secret \(reference)") { db in
            let current = try state(db, reference)
            let version = try LocalClock.tick(db, device: deviceID, skew: clockSkew.withLock { $0 })
            let item: SecretItem
            switch current.state {
            case .present(let existing):
                item = SecretItem(reference: reference, availability: existing.availability, pinned: existing.pinned,
                                  incarnation: existing.incarnation, version: version)
            default:
                item = SecretItem(reference: reference, availability: availability, pinned: false,
                                  incarnation: try Self.incarnation(after: try lastIncarnation(db, reference) ?? 0, of: reference), version: version)
            }
            let sealed = try BodySeal.seal(body, item: item, keys: keys)
            let written = try Self.writeContext(db, reference, version: version)
            try db.run("""
                INSERT OR REPLACE INTO secret_items (reference, availability, pinned, incarnation, version_clock, version_device, sealed_body, context)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [reference, item.availability.rawValue, item.pinned, item.incarnation, version.clock, version.device, try placeBody(sealed, of: item, db),
                      Self.stored(written, version: version)])
            if item.availability == .syncable {
                try Journal.record(db, JournalEntry(recordName: reference, kind: Self.itemKind, version: version, deleted: false, incarnation: item.incarnation))
            }
            return item
        }
    }

    /// Opens the body stored under `reference`.
    ///
    /// Throws `absent` (not arrived), `deleted`, `quarantined`, `locked`, or
    /// `authenticationFailed` when the stored ciphertext does not open under its own name.
    public func read(_ reference: String) throws -> SecretBytes {
        var (state, column) = try read("read the secret \(reference)") { db in try self.state(db, reference) }
        var item = try Self.presentItem(state, reference)
        let keys = try unlockedKeys()
        var found = try sealedBody(column ?? [], of: item)
        if found == nil {
            // Another process may have stored a new version, and removed this one's keyring
            // item, since the row was read: read the row once more.
            (state, column) = try read("read the secret \(reference)") { db in try self.state(db, reference) }
            let again = try Self.presentItem(state, reference)
            if again != item {
                item = again
                found = try sealedBody(column ?? [], of: item)
            }
        }
        guard let sealed = found else {
            throw SecretError(.authenticationFailed, "The desktop keyring no longer holds the secret \(reference) as this vault stored it.",
                              hint: "It was removed or changed there (or the keyring was reset); set the secret again.")
        }
        do {
            return try BodySeal.open(sealed, item: item, keys: keys)
        } catch let error as SodiumError {
            throw SecretError(.authenticationFailed, "The stored secret \(reference) failed authentication: \(error.message)",
                              hint: "The secrets database was altered or damaged; restore it from a backup or set the secret again.")
        }
    }

    /// The item of a present secret, or the error that says why there is none.
    static func presentItem(_ state: SecretState, _ reference: String) throws -> SecretItem {
        switch state {
        case .present(let item): return item
        case .deleted: throw SecretError(.deleted, "The secret \(reference) was deleted.")
        case .quarantined: throw SecretError(.quarantined, "The secret \(reference) arrived but is quarantined.")
        case .absent: throw SecretError(.absent, "No secret \(reference) on this device.")
        }
    }

    /// Deletes the current incarnation of `reference`: the deletion marker is written in the
    /// same transaction that removes the body, so the removal is never without its marker.
    /// The marker of a device-only body stays on this device: that incarnation never left, so
    /// no delivery can bring it back, and a travelling deletion could remove another device's
    /// own life of the same number. Returns nil when there was nothing to delete.
    @discardableResult
    public func delete(_ reference: String) throws -> DeletionMarker? {
        try write("delete the secret \(reference)") { db in
            guard case .present(let item) = try state(db, reference).state else { return nil }
            let version = try LocalClock.tick(db, device: deviceID, skew: clockSkew.withLock { $0 })
            let marker = DeletionMarker(reference: reference, incarnation: item.incarnation, version: version)
            let travels = item.availability == .syncable
            let context = try Self.writeContext(db, reference, version: version)
            try db.run("INSERT OR REPLACE INTO deletion_markers (reference, incarnation, version_clock, version_device, local_only, context) VALUES (?, ?, ?, ?, ?, ?)",
                       [reference, item.incarnation, version.clock, version.device, !travels, Self.stored(context, version: version)])
            try db.run("DELETE FROM secret_items WHERE reference = ?", [reference])
            // Deleting is meant: a device-only copy kept from a migration goes with the body.
            try db.run("DELETE FROM migration_copies WHERE reference = ?", [reference])
            // A syncable deletion travels, so every device removes this incarnation for good.
            guard travels else { return marker }
            try RemovalLog.store(db, recordName: reference, incarnation: item.incarnation, version: version, context: context)
            try Journal.record(db, JournalEntry(recordName: reference, kind: Self.itemKind, version: version, deleted: true, incarnation: item.incarnation))
            return marker
        }
    }

    /// Metadata of every stored item, by reference.
    public func items() throws -> [SecretItem] {
        try read("list secrets") { db in try db.query(Self.selectItem + " ORDER BY reference") { Self.item($0) } }
    }

    /// What the secrets zone received but could not apply.
    public func quarantined() throws -> [QuarantineEntry] {
        try read("list quarantined secrets") { try Journal.quarantined($0) }
    }

    public func quarantineSummary() throws -> QuarantineSummary {
        try read("summarize the secrets quarantine") { try SyncTables.quarantineSummary($0, zone: "secrets") }
    }

    /// Drops a quarantined entry for good; false if there is none with that id.
    public func discardQuarantined(id: Int64) throws -> Bool {
        try write("discard a quarantined secret") { try Journal.discardQuarantined($0, id: id) }
    }

    public func counts() throws -> SecretCounts {
        try read("count secrets") { db in
            func count(_ sql: String) throws -> Int { try db.queryFirst(sql) { $0.int(0) } ?? 0 }
            return SecretCounts(
                deviceOnly: try count("SELECT count(*) FROM secret_items WHERE availability = 'deviceOnly'"),
                syncable: try count("SELECT count(*) FROM secret_items WHERE availability = 'syncable'"),
                awaitingMigration: try count("SELECT count(*) FROM secret_items WHERE availability = 'deviceOnly' AND pinned = 0"),
                awaitingVerification: try count("SELECT count(*) FROM migration_copies"),
                deletionMarkers: try count("SELECT count(*) FROM deletion_markers"),
                pendingChanges: try Journal.pendingCount(db),
                quarantined: try Journal.quarantineCount(db),
                conflicts: try count("SELECT count(*) FROM secret_conflicts"))
        }
    }

    // MARK: - Internals

    /// The associated data that binds a body to its name, incarnation and version.
    static func context(_ item: SecretItem) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(item.reference.utf8.count + item.version.device.utf8.count + 48)
        bytes += item.reference.utf8
        bytes.append(0)
        bytes += String(item.incarnation).utf8
        bytes.append(0)
        bytes += String(item.version.clock).utf8
        bytes.append(0)
        bytes += item.version.device.utf8
        return bytes
    }

    /// The write context of a row selected by `selectItem`.
    static func itemContext(_ row: Row) -> VersionContext {
        decoded(row.blob(7), version: RecordVersion(clock: row.uint64(4), device: row.text(5) ?? ""))
    }

    static func item(_ row: Row) -> SecretItem {
        SecretItem(reference: row.text(0) ?? "", availability: Availability(rawValue: row.text(1) ?? "") ?? .deviceOnly,
                   pinned: row.bool(2), incarnation: row.int64(3), version: RecordVersion(clock: row.uint64(4), device: row.text(5) ?? ""))
    }

    /// The state plus, when present, the `sealed_body` column (the body, or a placeholder for
    /// one kept outside: see `sealedBody`).
    func state(_ db: Connection, _ reference: String) throws -> (state: SecretState, sealed: [UInt8]?) {
        if let (item, sealed) = try db.queryFirst(Self.selectItem + " WHERE reference = ?", [reference], { (Self.item($0), $0.blob(6)) }) {
            return (.present(item), sealed)
        }
        if let marker = try db.queryFirst("SELECT incarnation, version_clock, version_device FROM deletion_markers WHERE reference = ? ORDER BY incarnation DESC LIMIT 1", [reference], {
            DeletionMarker(reference: reference, incarnation: $0.int64(0), version: RecordVersion(clock: $0.uint64(1), device: $0.text(2) ?? ""))
        }) {
            return (.deleted(marker), nil)
        }
        if try Journal.isQuarantined(db, recordName: reference) { return (.quarantined, nil) }
        return (.absent, nil)
    }

    /// The incarnation that follows `last`. Received incarnations are at most 2^48, so this
    /// refuses only what an older build let in (or a damaged file): with a reason, never a trap.
    static func incarnation(after last: Int64, of reference: String) throws -> Int64 {
        guard last >= 0, last < Envelope.maximumIncarnation else {
            throw SecretError(.invalid, "The secret \(reference) has an incarnation (\(last)) outside the range a new one can follow; remove its record and add it again.")
        }
        return last + 1
    }

    func lastIncarnation(_ db: Connection, _ reference: String) throws -> Int64? {
        try db.queryFirst("SELECT max(incarnation) FROM deletion_markers WHERE reference = ?", [reference]) { $0.isNull(0) ? nil : $0.int64(0) } ?? nil
    }
}
