import Identifiers
import Replication
import SQLite

/// Bringing back a removed record (`conflicts restore` of what was kept from it): the next
/// incarnation of its record, which beats the deletion on every device (docs/concurrent-edits.md).
extension ConfigStore {
    /// The host `id` as it was here when it was removed — from the last state its tombstone
    /// keeps — without a version; nil when it is not removed, or this device never held it.
    public func removedHost(id: UUID) throws -> Host? { try removedRecord(Host.self, id: id) }

    /// The identity `id` as it was here when it was removed, as `removedHost` gives a host.
    public func removedIdentity(id: UUID) throws -> Identity? { try removedRecord(Identity.self, id: id) }

    func removedRecord<R: ConfigRecord>(_: R.Type, id: UUID) throws -> R? {
        try read("read a removed \(R.kind)") { db in
            let key = CanonicalUUID.text(id)
            guard let state = try db.queryFirst("SELECT last_state FROM config_tombstones WHERE record_name = ?", ["\(R.kind)/\(key)"], { $0.blob(0) }) ?? nil,
                  let values = R.keptValues(state) else { return nil }
            return try R.unversioned(key: key, values: values)
        }
    }

    /// Brings `host` (a removed host, as `removedHost` gave it or changed since) back as the next
    /// incarnation of its record, every field written here after seeing the deletion. It must
    /// pass the rules of a save (its label free, what it names present); nothing is written
    /// otherwise. Throws `notFound` when the host is not removed.
    @discardableResult
    public func revive(_ host: Host) throws -> Host { try reviveRecord(host) }

    /// Brings a removed identity back, as `revive(_ host:)` does a host.
    @discardableResult
    public func revive(_ identity: Identity) throws -> Identity { try reviveRecord(identity) }

    func reviveRecord<R: ConfigRecord>(_ record: R) throws -> R {
        var record = record
        record.version = nil
        return try write("bring back a removed \(R.kind)") { db in
            record = try validatedRecord(db, record)
            let key = CanonicalUUID.text(record.id)
            guard try StoredRecord.read(db, R.self, key: key) == nil,
                  let (incarnation, deletion) = try db.queryFirst("SELECT incarnation, version_clock, version_device FROM config_tombstones WHERE record_name = ?",
                                                                  [record.recordName], { ($0.int64(0), RecordVersion(clock: $0.uint64(1), device: $0.text(2) ?? "")) })
            else { throw ConfigError(.notFound, "The \(R.kind) is not a removed \(R.kind).") }
            guard incarnation < Envelope.maximumIncarnation else { throw ConfigError(.invalid, "The \(R.kind) cannot be brought back again.") }
            let version = try LocalClock.tick(db, device: deviceID, skew: clockSkew.withLock { $0 })
            // Made after seeing the deletion, and so everything that had seen.
            let seen = try RemovalLog.context(db, recordName: record.recordName, incarnation: incarnation, version: deletion) ?? VersionContext(only: deletion)
            let stamp = FieldStamp(version: version, context: seen.advanced(to: version))
            let stamps = Array(repeating: stamp, count: R.fieldGroups.count)
            try db.run(R.insertSQL, R.insertValues(key: key, values: record.columnValues.map(\.sqlValue), version: version,
                                                     fields: FieldStamp.stored(stamps, recordVersion: version), incarnation: incarnation + 1))
            try ConfigZone.dropTombstone(db, recordName: record.recordName)
            try Journal.record(db, JournalEntry(recordName: record.recordName, kind: R.kind, version: version, deleted: false, incarnation: incarnation + 1))
            record.version = version
            return record
        }
    }

    /// Saves a record of any kind users edit, by the rules of that kind's save.
    @discardableResult
    func saveRecord<R: ConfigRecord>(_ record: R) throws -> R {
        try write("save a \(R.kind)") { db in try persist(db, try validatedRecord(db, record)) }
    }

    /// The checks a save of `record` makes, for a record of any kind users edit.
    private func validatedRecord<R: ConfigRecord>(_ db: Connection, _ record: R) throws -> R {
        switch record {
        case let host as Host: return try validated(db, host) as! R
        case let group as HostGroup: return try validated(db, group) as! R
        case let identity as Identity: return try validated(db, identity) as! R
        case let rule as PortForwardRule: return try validated(db, rule) as! R
        default: throw ConfigError(.invalid, "A \(R.kind) is not brought back: it is written once, by its device.")
        }
    }
}
