import Replication
import SQLite
import Sodium

/// The secret track's side of replication: the `secrets` zone over `secrets.sqlite`.
///
/// Bodies travel exactly as stored — sealed under the vault key and bound to their reference,
/// incarnation and version — so syncing never needs the vault unlocked, and only syncable items
/// (never device-only ones) are ever journaled or sent.
public struct SecretZone: SQLiteZoneStore {
    public let zone = "secrets"
    /// Written: format 2 (the sealed body and its write context, `SecretPayload`). Read: 1 and 2.
    static let formatVersion: UInt16 = 2
    static let formatOne: UInt16 = 1
    let store: SecretStore
    public var deviceID: String { store.deviceID }

    public init(store: SecretStore) { self.store = store }

    public func readBookkeeping<T>(_ body: (Connection) throws -> T) throws -> T { try store.read("read the secrets sync state", body) }
    public func writeBookkeeping<T>(_ body: (Connection) throws -> T) throws -> T { try store.write("update the secrets sync state", body) }

    public func pendingChanges(limit: Int) throws -> [Envelope] {
        try store.read("read pending secret changes") { db in
            try RemovalLog.pendingEnvelopes(db, limit: limit, tombstone: { Self.tombstone($0.recordName, incarnation: $0.incarnation, version: $0.version) }) { entry in
                // The item, its body and its context in one read (a first publish sends every item).
                guard let (item, column, context) = try db.queryFirst(SecretStore.selectItem + " WHERE reference = ?", [entry.recordName], {
                    (SecretStore.item($0), $0.blob(6) ?? [], SecretStore.itemContext($0))
                }), item.availability == .syncable, let sealed = try store.sealedBody(column, of: item) else { return nil }
                return Self.envelope(item, sealed: sealed, context: context)
            }
        }
    }

    public func apply(_ batches: [IncomingBatch]) throws -> ApplyReport {
        try store.write("apply fetched secret changes") { db in
            let seen = try db.queryFirst("SELECT EXISTS (SELECT 1 FROM deletion_markers)") { $0.bool(0) } ?? true
            return try SyncTables.apply(db, zone: zone, ownDevice: deviceID, batches: batches, keepsRejectedBytes: false, deletionsSeen: seen) {
                try merge(db, $0, pending: $1, markers: $2, removal: $3)
            }
        }
    }

    /// Also notes, for migrated items still keeping their device-only copy, which object now
    /// holds their syncable body, so `verifyMigrations` can read it back.
    public func acknowledge(_ sent: [Envelope], sequence: UInt64) throws {
        try store.write("acknowledge sent secrets") { db in
            try SyncTables.acknowledge(db, zone: zone, sent: sent, sequence: sequence, ownDevice: deviceID)
            for envelope in sent where !envelope.deleted {
                try db.run("UPDATE migration_copies SET sequence = ? WHERE reference = ?", [sequence, envelope.recordName])
            }
        }
    }

    public func replayQuarantined() throws -> ApplyReport {
        try store.write("retry quarantined secret changes") { db in
            try SyncTables.replay(db, zone: zone) { envelope, pending in try merge(db, envelope, pending: pending, markers: true) }
        }
    }

    /// Merges one envelope: applied, ignored (what this device has wins), or quarantined.
    /// `removal`: the context that came with a deletion (`RemovalPairing`).
    private func merge(_ db: Connection, _ envelope: Envelope, pending: Bool, markers: Bool, removal: VersionContext? = nil) throws -> MergeOutcome {
        // Bytes are kept for later only when they are a sealed body: anything else might be a
        // secret in the clear from a newer or broken writer.
        let keep: (String) -> MergeOutcome = { Self.looksSealed(envelope.payload) ? .quarantined($0) : .refused($0 + " (its bytes were not kept)") }
        // A deletion carries no secret, so one from a newer build is always kept for later.
        let keepForLater: (String) -> MergeOutcome = {
            envelope.deleted && envelope.payload.isEmpty || Self.looksSealed(envelope.payload) ? .unsupported($0) : .refused($0 + " (its bytes were not kept)")
        }
        guard envelope.kind == SecretStore.itemKind else { return keepForLater("unknown record kind '\(envelope.kind)'") }
        guard [Self.formatOne, Self.formatVersion].contains(envelope.formatVersion) else {
            return keepForLater("unsupported secret format version \(envelope.formatVersion)")
        }
        guard envelope.incarnation >= 1 else { return keep("invalid incarnation \(envelope.incarnation)") }
        // Format 2 carries the body's write context after it (a deletion carries nothing).
        var sealed = envelope.payload, context: VersionContext?
        if envelope.formatVersion == Self.formatVersion && !envelope.deleted {
            guard let (body, written) = SecretPayload.decode(envelope.payload, version: envelope.version) else {
                return keep("invalid secret payload: a write context that does not decode or cannot be this version's")
            }
            (sealed, context) = (body, written)
        }
        // Bytes that are not a sealed body could be a plaintext secret: never kept on disk.
        if !envelope.deleted && !Self.looksSealed(sealed) { return .refused("the secret body is not a sealed body (its bytes were not kept)") }
        let (local, item) = try localState(db, envelope.recordName, markers: markers)
        // A secret pinned to this device is this device's own: nothing from elsewhere replaces
        // or deletes it (its incarnation never left, so none from elsewhere is about it).
        if let item, item.pinned, item.availability == .deviceOnly { return .ignored }
        if let local, !Merge.wins(envelope, over: local) {
            return .ignored
        }
        // A deletion of this device's own, not sent yet, replaced: kept for an undo of the winner.
        if let local, local.deleted, pending, local.version.device == deviceID { try ReplacedRemovals.keep(db, own: local, winner: envelope.version) }
        // A deletion's context came in its removal, just before it (none from an older build).
        if envelope.deleted {
            context = removal
            if let removal { try RemovalLog.store(db, recordName: envelope.recordName, incarnation: envelope.incarnation, version: envelope.version, context: removal) }
        }
        if let local, let item { try keepIfConflict(db, local: local, item: item, losingTo: envelope, context: context, pending: pending) }
        if envelope.deleted {
            // The marker for that incarnation first; the body goes only if it is of that life.
            try db.run("INSERT OR REPLACE INTO deletion_markers (reference, incarnation, version_clock, version_device, context) VALUES (?, ?, ?, ?, ?)",
                       [envelope.recordName, envelope.incarnation, envelope.version.clock, envelope.version.device,
                        context.flatMap { SecretStore.stored($0, version: envelope.version) }])
            try db.run("DELETE FROM secret_items WHERE reference = ? AND incarnation <= ?", [envelope.recordName, envelope.incarnation])
            try db.run("DELETE FROM migration_copies WHERE reference = ? AND incarnation <= ?", [envelope.recordName, envelope.incarnation])
        } else {
            // A newer body from elsewhere: a kept migration copy is of a replaced version (and a
            // losing local edit was kept as a conflict above).
            try db.run("DELETE FROM migration_copies WHERE reference = ?", [envelope.recordName])
            let arrived = SecretItem(reference: envelope.recordName, availability: .syncable, pinned: false, incarnation: envelope.incarnation, version: envelope.version)
            try db.run("""
                INSERT OR REPLACE INTO secret_items (reference, availability, pinned, incarnation, version_clock, version_device, sealed_body, context)
                VALUES (?, 'syncable', 0, ?, ?, ?, ?, ?)
                """, [envelope.recordName, envelope.incarnation, envelope.version.clock, envelope.version.device, try store.placeBody(sealed, of: arrived, db),
                      context.flatMap { SecretStore.stored($0, version: envelope.version) }])
        }
        if pending { try Journal.discard(db, recordName: envelope.recordName) }
        return .applied
    }

    /// Keeps this device's body, about to be replaced or removed by `winner`, when that was
    /// written without knowing it: a winner whose write context (`context`: a format-2 body's,
    /// or a deletion's removal) does not cover it — whether or not this body was sent — or a
    /// device-only body. Without a context (format 1, or a deletion without its removal): a
    /// body not sent yet, or one newer than the deletion that beats it (a deleting device that
    /// had seen it would have stamped its deletion later).
    private func keepIfConflict(_ db: Connection, local: Envelope, item: SecretItem, losingTo winner: Envelope, context: VersionContext?, pending: Bool) throws {
        guard !local.deleted, local.version.device == deviceID else { return }
        let unseen = context.map { !$0.covers(local.version) } ?? (pending || (winner.deleted && winner.version < local.version))
        guard unseen || item.availability == .deviceOnly else { return }
        let decoded = SecretPayload.decode(local.payload, version: local.version)
        try SecretStore.keepConflict(db, lost: item, sealed: decoded?.sealed ?? local.payload, context: decoded?.context, winner: winner)
    }

    /// This device's state of a reference as an envelope — its body, else its newest marker —
    /// and its live item, if it has one.
    private func localState(_ db: Connection, _ reference: String, markers: Bool) throws -> (Envelope?, SecretItem?) {
        let marker = markers ? try newestMarker(db, reference) : nil
        if let (item, sealed, context) = try db.queryFirst(SecretStore.selectItem + " WHERE reference = ?", [reference],
                                                           { (SecretStore.item($0), $0.blob(6) ?? [], SecretStore.itemContext($0)) }) {
            // A body of an incarnation this device saw deleted counts as deleted.
            if let marker, marker.incarnation >= item.incarnation {
                return (Self.tombstone(reference, incarnation: marker.incarnation, version: marker.version), nil)
            }
            // A body kept outside that is no longer there counts as absent, so whatever arrives
            // (even the same version again) restores it.
            if let payload = try store.sealedBody(sealed, of: item) { return (Self.envelope(item, sealed: payload, context: context), item) }
        }
        return (marker.map { Self.tombstone(reference, incarnation: $0.incarnation, version: $0.version) }, nil)
    }

    private func newestMarker(_ db: Connection, _ reference: String) throws -> DeletionMarker? {
        // A marker of a device-only life says nothing about lives from elsewhere.
        try db.queryFirst("SELECT incarnation, version_clock, version_device FROM deletion_markers WHERE reference = ? AND local_only = 0 ORDER BY incarnation DESC LIMIT 1",
                          [reference]) { DeletionMarker(reference: reference, incarnation: $0.int64(0), version: RecordVersion(clock: $0.uint64(1), device: $0.text(2) ?? "")) }
    }

    /// A live item as format 2: its sealed body and write context.
    static func envelope(_ item: SecretItem, sealed: [UInt8], context: VersionContext) -> Envelope {
        Envelope(recordName: item.reference, kind: SecretStore.itemKind, formatVersion: formatVersion, version: item.version,
                 deleted: false, incarnation: item.incarnation, payload: SecretPayload.encode(sealed: sealed, context: context))
    }

    /// A deletion, in format 1 (an empty payload), so every build applies it at once.
    static func tombstone(_ reference: String, incarnation: Int64, version: RecordVersion) -> Envelope {
        Envelope(recordName: reference, kind: SecretStore.itemKind, formatVersion: formatOne, version: version,
                 deleted: true, incarnation: incarnation, payload: [])
    }

    /// A body this build could open once unlocked: the sealed-body header and minimum length.
    static func looksSealed(_ payload: [UInt8]) -> Bool {
        BodySeal.looksSealed(payload)
    }
}
