import FoundationEssentials
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
            try Journal.pending(db, limit: limit).compactMap { entry in
                if entry.deleted { return tombstone(entry.recordName, kind: entry.kind, version: entry.version) }
                return try localEnvelope(db, recordName: entry.recordName)
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
            return try SyncTables.apply(db, zone: zone, ownDevice: deviceID, batches: batches, deletionsSeen: seen) { envelope, pending, tombstones in
                let known = !fresh || !applied.insert(envelope.recordName).inserted
                return try merge(db, envelope, pending: pending, tombstones: tombstones, known: known)
            }
        }
    }

    public func replayQuarantined() throws -> ApplyReport {
        try store.write("retry quarantined config changes") { db in
            try SyncTables.replay(db, zone: zone) { envelope, pending in try merge(db, envelope, pending: pending, tombstones: true) }
        }
    }

    /// Merges one envelope: applied, ignored (what this device has wins), or quarantined.
    /// `known` false: the store certainly holds no live row for this name (tombstones are
    /// still looked up when there are any).
    private func merge(_ db: Connection, _ envelope: Envelope, pending: Bool, tombstones: Bool, known: Bool = true) throws -> MergeOutcome {
        guard let type = Self.kinds[envelope.kind] else { return .unsupported("unknown record kind '\(envelope.kind)'") }
        guard envelope.formatVersion == ConfigPayload.formatVersion else { return .unsupported("unsupported \(envelope.kind) format version \(envelope.formatVersion)") }
        guard let id = Self.id(of: envelope.recordName, kind: envelope.kind) else { return .quarantined("malformed record name") }
        let local = try localEnvelope(db, type: type, id: id, recordName: envelope.recordName, rows: known, tombstones: tombstones)
        if let local, !Merge.wins(envelope, over: local) {
            return .ignored
        }
        let key = CanonicalUUID.text(id)
        if envelope.deleted {
            try db.run("DELETE FROM \(type.table) WHERE id = ?", [key])
            try db.run("INSERT OR REPLACE INTO config_tombstones (record_name, kind, version_clock, version_device) VALUES (?, ?, ?, ?)",
                       [envelope.recordName, envelope.kind, envelope.version.clock, envelope.version.device])
        } else {
            // Checked before anything is written, by the code that reads the record from its table.
            guard let values = ConfigPayload.decode(envelope.payload, count: type.columns.count) else { return .quarantined("invalid \(envelope.kind) payload") }
            let row = [SQLValue.text(key)] + values + [SQLValue.integer(Int64(bitPattern: envelope.version.clock)), .text(envelope.version.device)]
            // The rules a local save passes, so nothing arrives that this device could not have written.
            do {
                let record = try type.init(row: Row(values: row))
                // What is stored is what was checked: a value of another type (a blob where a
                // user name or reference belongs) reads as absent, passes the rules, and is
                // read back as text once stored.
                guard record.columnValues.map(\.sqlValue) == values else { return .quarantined("invalid \(envelope.kind) payload: a field holds a value of the wrong type") }
                try ConfigValidation.record(record)
            } catch let error as ConfigError where error.code == .invalid {
                return .quarantined("invalid \(envelope.kind): \(error.message)")
            } catch {
                return .quarantined("invalid \(envelope.kind) payload")
            }
            do {
                try db.run(type.insertSQL, row)
            } catch let error as SQLiteError where error.code == .constraint {
                // A column the table requires is NULL in the payload (records read such values as
                // 0 or empty, which some kinds accept): as invalid as failing validation, and only
                // this statement failed, so the rest of the fetch still applies.
                return .quarantined("invalid \(envelope.kind) payload")
            }
            if local?.deleted == true { try db.run("DELETE FROM config_tombstones WHERE record_name = ?", [envelope.recordName]) }
        }
        // The fetched version beats whatever this device had, including a pending edit.
        if pending { try Journal.discard(db, recordName: envelope.recordName) }
        return .applied
    }

    /// This device's current state of a record as an envelope: the live row or its tombstone.
    private func localEnvelope(_ db: Connection, recordName: String) throws -> Envelope? {
        guard let slash = recordName.firstIndex(of: "/"), let type = Self.kinds[String(recordName[..<slash])],
              let id = Self.id(of: recordName, kind: type.kind) else { return nil }
        return try localEnvelope(db, type: type, id: id, recordName: recordName, rows: true, tombstones: true)
    }

    private func localEnvelope(_ db: Connection, type: any ConfigRecord.Type, id: UUID, recordName: String, rows: Bool, tombstones: Bool) throws -> Envelope? {
        if rows, let (values, version) = try db.queryFirst(type.selectColumnsSQL, [CanonicalUUID.text(id)], { row in
            ((0..<Int32(type.columns.count)).map { row.value($0) },
             RecordVersion(clock: row.uint64(Int32(type.columns.count)), device: row.text(Int32(type.columns.count) + 1) ?? ""))
        }) {
            return Envelope(recordName: recordName, kind: type.kind, formatVersion: ConfigPayload.formatVersion, version: version,
                            deleted: false, incarnation: 0, payload: ConfigPayload.encode(values))
        }
        guard tombstones else { return nil }
        return try db.queryFirst("SELECT version_clock, version_device FROM config_tombstones WHERE record_name = ?", [recordName]) {
            tombstone(recordName, kind: type.kind, version: RecordVersion(clock: $0.uint64(0), device: $0.text(1) ?? ""))
        }
    }

    private func tombstone(_ recordName: String, kind: String, version: RecordVersion) -> Envelope {
        Envelope(recordName: recordName, kind: kind, formatVersion: ConfigPayload.formatVersion, version: version, deleted: true, incarnation: 0, payload: [])
    }

    static func id(of recordName: String, kind: String) -> UUID? {
        let prefix = kind + "/"
        guard recordName.hasPrefix(prefix) else { return nil }
        return CanonicalUUID.parse(String(recordName.dropFirst(prefix.count)))
    }
}
