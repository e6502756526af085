import Identifiers
import Replication
import SQLite

/// The config track's side of replication: the `config` zone over `config.sqlite`.
public struct ConfigZone: SQLiteZoneStore {
    public let zone = "config"
    let store: ConfigStore
    public var deviceID: String { store.deviceID }

    /// The record kinds this build reads, by their name in envelopes.
    static let kinds: [String: any ConfigRecord.Type] = [
        Host.kind: Host.self, HostGroup.kind: HostGroup.self, Identity.kind: Identity.self, PortForwardRule.kind: PortForwardRule.self,
        Device.kind: Device.self,
    ]

    public init(store: ConfigStore) { self.store = store }

    public func readBookkeeping<T>(_ body: (Connection) throws -> T) throws -> T { try store.read("read the config sync state", body) }
    public func writeBookkeeping<T>(_ body: (Connection) throws -> T) throws -> T { try store.write("update the config sync state", body) }

    public func pendingChanges(limit: Int) throws -> [Envelope] {
        try store.read("read pending config changes") { db in
            try RemovalLog.pendingEnvelopes(db, limit: limit, tombstone: { tombstone($0.recordName, kind: $0.kind, version: $0.version, incarnation: $0.incarnation) }) {
                try localEnvelope(db, recordName: $0.recordName)
            }
        }
    }

    public func apply(_ batches: [IncomingBatch]) throws -> ApplyReport {
        try store.write("apply fetched config changes") { db in
            let seen = try db.queryFirst("SELECT EXISTS (SELECT 1 FROM config_tombstones)") { $0.bool(0) } ?? true
            // A store with no records yet (a device joining) has nothing to look up for a name
            // this transaction has not applied before: its lookup is skipped.
            var fresh = true
            for type in Self.kinds.values where fresh {
                fresh = try db.queryFirst("SELECT NOT EXISTS (SELECT 1 FROM \(type.table))") { $0.bool(0) } ?? false
            }
            var applied = Set<String>()
            return try SyncTables.apply(db, zone: zone, ownDevice: deviceID, batches: batches, deletionsSeen: seen) { envelope, pending, tombstones, removal in
                let known = !fresh || !applied.insert(envelope.recordName).inserted
                return try merge(db, envelope, pending: pending, tombstones: tombstones, known: known, removal: removal)
            }
        }
    }

    public func replayQuarantined() throws -> ApplyReport {
        try store.write("retry quarantined config changes") { db in
            try SyncTables.replay(db, zone: zone) { envelope, pending in try merge(db, envelope, pending: pending, tombstones: true) }
        }
    }

    /// This device's current state of a record as an envelope: the live row or its tombstone.
    private func localEnvelope(_ db: Connection, recordName: String) throws -> Envelope? {
        guard let slash = recordName.firstIndex(of: "/"), let type = Self.kinds[String(recordName[..<slash])],
              let id = Self.id(of: recordName, kind: type.kind) else { return nil }
        return try localEnvelope(db, type: type, id: id, recordName: recordName, rows: true, tombstones: true)
    }

    func localEnvelope(_ db: Connection, type: any ConfigRecord.Type, id: UUID, recordName: String, rows: Bool, tombstones: Bool) throws -> Envelope? {
        if rows, let stored = try StoredRecord.read(db, type, key: CanonicalUUID.text(id)) {
            return stored.envelope(type, recordName: recordName)
        }
        guard tombstones else { return nil }
        return try tombstone(db, recordName: recordName, kind: type.kind)
    }

    /// The record's tombstone here, if it has one. Tombstones stay format 1 (an empty payload),
    /// so every build applies a deletion at once.
    func tombstone(_ db: Connection, recordName: String, kind: String) throws -> Envelope? {
        try db.queryFirst("SELECT version_clock, version_device, incarnation FROM config_tombstones WHERE record_name = ?", [recordName]) {
            tombstone(recordName, kind: kind, version: RecordVersion(clock: $0.uint64(0), device: $0.text(1) ?? ""), incarnation: $0.int64(2))
        }
    }

    func tombstone(_ recordName: String, kind: String, version: RecordVersion, incarnation: Int64) -> Envelope {
        Envelope(recordName: recordName, kind: kind, formatVersion: ConfigPayload.formatVersion, version: version, deleted: true, incarnation: incarnation, payload: [])
    }

    /// Stores (or replaces) a record's tombstone; `lastState` is the record's values when it was
    /// removed here (format-1 payload), kept so it can be brought back, or nil when this device
    /// never held it live.
    static func storeTombstone(_ db: Connection, recordName: String, kind: String, version: RecordVersion, incarnation: Int64, lastState: [UInt8]?) throws {
        try db.run("""
            INSERT INTO config_tombstones (record_name, kind, version_clock, version_device, incarnation, last_state) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (record_name) DO UPDATE SET kind = excluded.kind, version_clock = excluded.version_clock, version_device = excluded.version_device,
                incarnation = excluded.incarnation, last_state = coalesce(excluded.last_state, config_tombstones.last_state)
            """, [recordName, kind, version.clock, version.device, incarnation, lastState])
    }

    /// Removes a record's tombstone and the removal that went with it (a later incarnation
    /// stands in its place).
    static func dropTombstone(_ db: Connection, recordName: String) throws {
        try db.run("DELETE FROM config_tombstones WHERE record_name = ?", [recordName])
        try RemovalLog.drop(db, recordName: recordName)
    }

    static func id(of recordName: String, kind: String) -> UUID? {
        let prefix = kind + "/"
        guard recordName.hasPrefix(prefix) else { return nil }
        return CanonicalUUID.parse(String(recordName.dropFirst(prefix.count)))
    }
}
