import Replication
import SQLite

/// `ZoneStore.undoRevoked` and `republishRevoked` for config records (`<kind>/<id>`).
extension ConfigZone {
    public func undoRevoked(_ device: String, versions: [String: Set<RecordVersion>]) throws {
        try store.write("undo what revoked \(device) wrote") { db in
            let pending = Set(try db.query("SELECT record_name FROM replication_journal") { $0.text(0) ?? "" })
            for (name, brought) in versions where !pending.contains(name) {
                guard let (type, id) = Self.parse(name) else { continue }
                var undone: Set<RecordVersion> = []
                if let standing = try standing(db, type, id), brought.contains(standing.version),
                   try !SyncTables.relayed(db, zone: zone, recordName: name, version: standing.version) {
                    try db.run("DELETE FROM \(type.table) WHERE id = ?", [id])
                    undone.insert(standing.version)
                }
                if let dead = try tombstone(db, name), brought.contains(dead.version), try !SyncTables.relayed(db, zone: zone, recordName: name, version: dead.version) {
                    try db.run("DELETE FROM config_tombstones WHERE record_name = ?", [name])
                    undone.insert(dead.version)
                }
                if !undone.isEmpty { try reinstateOwnRemoval(db, name, type, id, beatenBy: undone) }
            }
            try SyncTables.undid(db, zone: zone, device: device)
        }
    }

    public func republishRevoked(_ device: String, records: [String], inspectedThrough: UInt64) throws {
        try store.write("send again what revoked \(device) touched") { db in
            for name in records {
                guard let (type, id) = Self.parse(name) else { continue }
                if let live = try standing(db, type, id) {
                    try Journal.record(db, JournalEntry(recordName: name, kind: type.kind, version: live.version, deleted: false, incarnation: live.incarnation))
                } else if let dead = try tombstone(db, name) {
                    try Journal.record(db, JournalEntry(recordName: name, kind: type.kind, version: dead.version, deleted: true, incarnation: dead.incarnation))
                }
            }
            try SyncTables.inspected(db, zone: zone, device: device, through: inspectedThrough)
        }
    }

    /// This device's own removal of `name`, not sent yet, that a version just undone replaced
    /// (`ReplacedRemovals`) stands again and is sent — unless a later life stands or a removal
    /// of its life or a later one remains. (A value of its own that lost is in `conflicts`.)
    private func reinstateOwnRemoval(_ db: Connection, _ name: String, _ type: any ConfigRecord.Type, _ id: String, beatenBy undone: Set<RecordVersion>) throws {
        guard let own = try ReplacedRemovals.take(db, recordName: name, beatenBy: undone),
              try standing(db, type, id).map({ $0.incarnation <= own.incarnation }) ?? true,
              try tombstone(db, name).map({ $0.incarnation < own.incarnation }) ?? true
        else { return }
        try db.run("DELETE FROM \(type.table) WHERE id = ?", [id])
        try Self.storeTombstone(db, recordName: name, kind: type.kind, version: own.version, incarnation: own.incarnation, lastState: nil)
        try ReplacedRemovals.restore(db, recordName: name, kind: type.kind, own)
    }

    private static func parse(_ name: String) -> (any ConfigRecord.Type, String)? {
        let parts = name.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let type = kinds[String(parts[0])] else { return nil }
        return (type, String(parts[1]))
    }

    private func standing(_ db: Connection, _ type: any ConfigRecord.Type, _ id: String) throws -> (version: RecordVersion, incarnation: Int64)? {
        try db.queryFirst("SELECT version_clock, version_device, incarnation FROM \(type.table) WHERE id = ?", [id]) {
            (RecordVersion(clock: $0.uint64(0), device: $0.text(1) ?? ""), $0.int64(2))
        }
    }

    private func tombstone(_ db: Connection, _ name: String) throws -> (version: RecordVersion, incarnation: Int64)? {
        try db.queryFirst("SELECT version_clock, version_device, incarnation FROM config_tombstones WHERE record_name = ?", [name]) {
            (RecordVersion(clock: $0.uint64(0), device: $0.text(1) ?? ""), $0.int64(2))
        }
    }
}
