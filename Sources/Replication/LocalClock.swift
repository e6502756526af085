import SQLite

/// The persisted hybrid logical clock of one track database.
///
/// Ticking happens inside the caller's write transaction, so the reading and the edit it
/// stamps commit together; two edits in the same millisecond still get distinct, ordered versions.
public enum LocalClock {
    /// Schema for the clock's single row.
    public static let migration = Migration("replication: local clock") { db in
        try db.execute("CREATE TABLE replication_clock (id INTEGER PRIMARY KEY CHECK (id = 1), last INTEGER NOT NULL)")
        try db.execute("INSERT INTO replication_clock (id, last) VALUES (1, 0)")
    }

    /// Advances the clock and returns a fresh version written by `device`. Call inside a write.
    /// `skew` shifts this device's wall clock (tests simulate devices whose clocks are wrong).
    public static func tick(_ db: Connection, device: String, skew: Int64 = 0,
                            nowMilliseconds: UInt64 = HybridLogicalClock.wallMilliseconds()) throws -> RecordVersion {
        let nowMilliseconds = skew >= 0 ? nowMilliseconds &+ UInt64(skew) : nowMilliseconds - min(nowMilliseconds, UInt64(-skew))
        let last = try db.queryFirst("SELECT last FROM replication_clock WHERE id = 1") { $0.uint64(0) } ?? 0
        let next = HybridLogicalClock.next(after: last, nowMilliseconds: nowMilliseconds)
        try db.run("UPDATE replication_clock SET last = ? WHERE id = 1", [next])
        return RecordVersion(clock: next, device: device)
    }

    /// Moves the clock past a version seen from elsewhere (merging a remote change).
    public static func observe(_ db: Connection, _ version: RecordVersion) throws {
        try db.run("UPDATE replication_clock SET last = max(last, ?) WHERE id = 1", [version.clock])
    }
}
