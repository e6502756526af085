import Replication
import Synchronization

/// Forwards to a real zone store and remembers every envelope it acknowledged as sent, so a
/// test can check that no acknowledged write is lost.
final class RecordingZone: ZoneStore {
    let inner: any ZoneStore
    let acknowledged: EnvelopeLog

    /// Records into `log`, which may outlive this store (one per sync) to gather many syncs.
    init(_ inner: any ZoneStore, log: EnvelopeLog = EnvelopeLog()) {
        self.inner = inner
        acknowledged = log
    }

    var zone: String { inner.zone }
    var deviceID: String { inner.deviceID }
    func syncState() throws -> ZoneSyncState { try inner.syncState() }
    func pendingChanges(limit: Int) throws -> [Envelope] { try inner.pendingChanges(limit: limit) }
    func apply(_ batches: [IncomingBatch]) throws -> ApplyReport { try inner.apply(batches) }
    func noteUnreadable(_ name: String, digest: [UInt8]) throws -> Int { try inner.noteUnreadable(name, digest: digest) }
    func quarantinedObjects() throws -> [(id: Int64, name: String, digest: [UInt8])] { try inner.quarantinedObjects() }
    func noteQuarantinedObject(id: Int64, digest: [UInt8], reason: String) throws { try inner.noteQuarantinedObject(id: id, digest: digest, reason: reason) }
    func replayQuarantined() throws -> ApplyReport { try inner.replayQuarantined() }
    func notePublishing(sequence: UInt64, digest: [UInt8]) throws { try inner.notePublishing(sequence: sequence, digest: digest) }
    func publishing(sequence: UInt64) throws -> [UInt8]? { try inner.publishing(sequence: sequence) }
    func wasIngested(_ name: String, digest: [UInt8]) throws -> Bool { try inner.wasIngested(name, digest: digest) }
    func markIngested(_ name: String, digest: [UInt8]) throws { try inner.markIngested(name, digest: digest) }
    func snapshotState(_ emit: (Envelope) throws -> Void) throws -> [String: UInt64]? { try inner.snapshotState(emit) }
    func firstSequenceStillNeeded() throws -> UInt64? { try inner.firstSequenceStillNeeded() }
    func bookkeepingValue(_ key: String) throws -> [UInt8]? { try inner.bookkeepingValue(key) }
    func setBookkeepingValue(_ key: String, _ value: [UInt8]) throws { try inner.setBookkeepingValue(key, value) }
    func undoRevoked(_ device: String, versions: [String: Set<RecordVersion>]) throws {
        try inner.undoRevoked(device, versions: versions)
    }
    func republishRevoked(_ device: String, records: [String], inspectedThrough: UInt64) throws {
        try inner.republishRevoked(device, records: records, inspectedThrough: inspectedThrough)
    }

    func acknowledge(_ sent: [Envelope], sequence: UInt64) throws {
        try inner.acknowledge(sent, sequence: sequence)
        acknowledged.envelopes.withLock { $0 += sent }
    }
}

/// Envelopes acknowledged as sent, gathered across threads and syncs.
final class EnvelopeLog: Sendable {
    let envelopes = Mutex<[Envelope]>([])
}
