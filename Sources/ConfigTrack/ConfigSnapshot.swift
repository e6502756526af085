import Identifiers
import SQLite

/// Reads from one consistent snapshot of the config database, for work that needs several
/// records to agree (resolving a host with its identity, jump hosts and forwards). Valid only
/// inside the closure passed to `ConfigStore.snapshot`.
public struct ConfigSnapshot {
    let store: ConfigStore
    let db: Connection

    public func host(_ labelOrID: String) throws -> Host { try store.find(db, Host.self, labelOrID: labelOrID) }
    public func host(id: UUID) throws -> Host? { try store.find(db, Host.self, id: id) }
    public func identity(id: UUID) throws -> Identity? { try store.find(db, Identity.self, id: id) }
    public func forwards(forHost hostID: UUID) throws -> [PortForwardRule] {
        try db.query(PortForwardRule.selectForHostSQL, [CanonicalUUID.text(hostID)]) { try PortForwardRule(row: $0) }
    }
}

extension ConfigStore {
    /// Runs `body` with a snapshot: every read inside sees the same state of the database.
    public func snapshot<T>(_ body: (ConfigSnapshot) throws -> T) throws -> T {
        try Self.storage("read the config database") { try queue.snapshot { try body(ConfigSnapshot(store: self, db: $0)) } }
    }
}
