import SQLite

/// A zone store kept in a track's own SQLite database. The bookkeeping part of the journal
/// contract — sync state, unreadable objects, conflict copies, acknowledgement — is the same
/// SQL for every track, so it is written once here; a track supplies its reads and writes (with
/// its own error vocabulary) and its merge.
public protocol SQLiteZoneStore: ZoneStore {
    func readBookkeeping<T>(_ body: (Connection) throws -> T) throws -> T
    func writeBookkeeping<T>(_ body: (Connection) throws -> T) throws -> T
}

extension SQLiteZoneStore {
    public func syncState() throws -> ZoneSyncState {
        try readBookkeeping { try SyncTables.state($0, zone: zone) }
    }

    /// The clock of the newest edit waiting to be sent (`Journal.newestPending`).
    public func newestPendingEdit() throws -> UInt64? {
        try readBookkeeping { try Journal.newestPending($0) }
    }

    public func noteUnreadable(_ name: String, digest: [UInt8]) throws -> Int {
        try writeBookkeeping { try SyncTables.noteUnreadable($0, name: name, digest: digest) }
    }

    public func quarantinedObjects() throws -> [(id: Int64, name: String, digest: [UInt8])] {
        try readBookkeeping { try SyncTables.quarantinedObjects($0) }
    }

    public func noteQuarantinedObject(id: Int64, digest: [UInt8], reason: String) throws {
        try writeBookkeeping { try SyncTables.noteQuarantinedObject($0, id: id, digest: digest, reason: reason) }
    }

    public func wasIngested(_ name: String, digest: [UInt8]) throws -> Bool {
        try readBookkeeping { try SyncTables.wasIngested($0, name: name, digest: digest) }
    }

    public func markIngested(_ name: String, digest: [UInt8]) throws {
        try writeBookkeeping { try SyncTables.markIngested($0, name: name, digest: digest) }
    }

    public func notePublishing(sequence: UInt64, digest: [UInt8]) throws {
        try writeBookkeeping { try SyncTables.notePublishing($0, zone: zone, sequence: sequence, digest: digest) }
    }

    public func publishing(sequence: UInt64) throws -> [UInt8]? {
        try readBookkeeping { try SyncTables.publishing($0, zone: zone, sequence: sequence) }
    }

    public func bookkeepingValue(_ key: String) throws -> [UInt8]? {
        try readBookkeeping { try SyncTables.value($0, zone: zone, key: key) }
    }

    public func setBookkeepingValue(_ key: String, _ value: [UInt8]) throws {
        try writeBookkeeping { try SyncTables.setValue($0, zone: zone, key: key, value) }
    }

    /// Per writer device, the newest version it stamped itself that this device applied here.
    public func lastHeard() throws -> [String: UInt64] {
        try readBookkeeping { try SyncTables.heard($0, zone: zone) }
    }

    public func acknowledge(_ sent: [Envelope], sequence: UInt64) throws {
        try writeBookkeeping { try SyncTables.acknowledge($0, zone: zone, sent: sent, sequence: sequence, ownDevice: deviceID) }
    }
}
