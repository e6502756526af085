import FoundationEssentials
import Replication
import SQLite

/// Bringing back a removed host (`conflicts restore` of what was kept from it): the next
/// incarnation of its record, which beats the deletion on every device (docs/concurrent-edits.md).
extension ConfigStore {
    /// The host `id` as it was here when it was removed — from the last state its tombstone
    /// keeps — without a version; nil when it is not removed, or this device never held it.
    public func removedHost(id: UUID) throws -> Host? {
        try read("read a removed host") { db in
            let key = CanonicalUUID.text(id)
            guard let state = try db.queryFirst("SELECT last_state FROM config_tombstones WHERE record_name = ?", ["\(Host.kind)/\(key)"], { $0.blob(0) }) ?? nil,
                  let values = ConfigPayload.decode(state, count: Host.columns.count) else { return nil }
            var host = try Host(row: Row(values: [.text(key)] + values + [.integer(0), .text("")]))
            host.version = nil
            return host
        }
    }

    /// Brings `host` (a removed host, as `removedHost` gave it or changed since) back as the next
    /// incarnation of its record, every field written here after seeing the deletion. It must
    /// pass the rules of a save (its label free, what it names present); nothing is written
    /// otherwise. Throws `notFound` when the host is not removed.
    @discardableResult
    public func revive(_ host: Host) throws -> Host {
        var host = host
        host.version = nil
        try validate(host)
        return try write("bring back host '\(CanonicalUUID.printable(host.label))'") { db in
            let key = CanonicalUUID.text(host.id)
            guard try StoredRecord.read(db, Host.self, key: key) == nil,
                  let (incarnation, deletion) = try db.queryFirst("SELECT incarnation, version_clock, version_device FROM config_tombstones WHERE record_name = ?",
                                                                  [host.recordName], { ($0.int64(0), RecordVersion(clock: $0.uint64(1), device: $0.text(2) ?? "")) })
            else { throw ConfigError(.notFound, "Host '\(host.label)' is not a removed host.") }
            guard incarnation < Envelope.maximumIncarnation else { throw ConfigError(.invalid, "Host '\(host.label)' cannot be brought back again.") }
            let version = try LocalClock.tick(db, device: deviceID, skew: clockSkew.withLock { $0 })
            let stamp = FieldStamp(version: version, context: VersionContext(only: deletion).advanced(to: version))
            let stamps = Array(repeating: stamp, count: Host.fieldGroups.count)
            try db.run(Host.insertSQL, [key] + host.columnValues + [version.clock, deviceID, FieldStamp.stored(stamps, recordVersion: version), incarnation + 1])
            try db.run("DELETE FROM config_tombstones WHERE record_name = ?", [host.recordName])
            try RemovalLog.drop(db, recordName: host.recordName)
            try Journal.record(db, JournalEntry(recordName: host.recordName, kind: Host.kind, version: version, deleted: false, incarnation: incarnation + 1))
            host.version = version
            return host
        }
    }
}
