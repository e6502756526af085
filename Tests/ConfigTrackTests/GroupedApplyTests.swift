import Foundation
import Replication
import Sodium
import Synchronization
import XCTest
@testable import ConfigTrack

/// A device catching up applies many fetched batches per transaction: a deletion in one of them
/// still governs later ones, and a group lands whole or not at all.
final class GroupedApplyTests: XCTestCase {
    private var directory = ""
    private var remote: DirectoryRemote!
    private var key: SecretBytes!

    override func setUpWithError() throws {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("grouped-apply-XXXXXX").utf8CString)
        directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
        try FileManager.default.createDirectory(atPath: directory + "/remote", withIntermediateDirectories: true)
        remote = DirectoryRemote(root: directory + "/remote")
        key = try SecretBytes.random(count: 32)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    private func store(_ name: String) throws -> ConfigStore { try ConfigStore.create(at: directory + "/\(name).sqlite", deviceID: "device-\(name)") }

    @discardableResult
    private func sync(_ zone: any ZoneStore) throws -> ZoneSyncReport { try ZoneEngine(store: zone, remote: remote, transportKey: key).run() }

    func testADeletionEarlierInAGroupStillBeatsAStaleEditLaterInIt() throws {
        let a = try store("a"), b = try store("b")
        let host = try a.save(Host(label: "web", hostname: "web.example"))
        try sync(ConfigZone(store: a))
        try sync(ConfigZone(store: b))
        var edited = try b.host("web")
        edited.port = 2200
        try b.save(edited)
        try sync(ConfigZone(store: b))
        try a.removeHost(id: host.id)
        try sync(ConfigZone(store: a))
        // A fresh device has never seen a deletion; device-a's tombstone and device-b's older
        // edit reach it in one group.
        let fresh = try store("c")
        let counting = CountingZone(ConfigZone(store: fresh))
        try sync(counting)
        XCTAssertEqual(counting.groups.withLock { $0 }, [3], "all three batches in one transaction")
        XCTAssertNil(try fresh.host(id: host.id), "the deleted host is not brought back")
        try sync(ConfigZone(store: b))
        XCTAssertNil(try b.host(id: host.id))
    }

    func testABatchThatFailsHoldsBackOnlyItselfAndWhatFollows() throws {
        let a = try store("a")
        for index in 0..<4 {
            try a.save(Host(label: "h\(index)", hostname: "h\(index).example"))
            try sync(ConfigZone(store: a))
        }
        let fresh = try store("c")
        // Batch 3 fails twice: in the group (which rolls back whole), then alone.
        let failing = CountingZone(ConfigZone(store: fresh), failing: 3, times: 2)
        XCTAssertThrowsError(try sync(failing))
        XCTAssertEqual(failing.groups.withLock { $0 }, [4, 1, 1, 1], "the group, then one batch at a time up to the bad one")
        XCTAssertEqual(try fresh.hosts().map(\.label).sorted(), ["h0", "h1"])
        XCTAssertEqual(try ConfigZone(store: fresh).syncState().cursors, ["device-a": 2], "the cursor stays before the bad batch")
        let report = try sync(ConfigZone(store: fresh))
        XCTAssertEqual([report.fetchedObjects, report.applied], [2, 2])
        XCTAssertEqual(try fresh.hosts().map(\.label).sorted(), ["h0", "h1", "h2", "h3"])
        XCTAssertEqual(try ConfigZone(store: fresh).syncState().cursors, ["device-a": 4])
    }
}

/// Forwards to a zone store, remembering how many batches each apply call carried; a call that
/// includes batch `failing` (the first `times` such calls) applies inside the transaction and
/// then fails it, as a crash or a broken record would.
private final class CountingZone: ZoneStore {
    let inner: ConfigZone
    let groups = Mutex<[Int]>([])
    private let failing: UInt64?
    private let failures: Mutex<Int>

    init(_ inner: ConfigZone, failing: UInt64? = nil, times: Int = 0) {
        self.inner = inner
        self.failing = failing
        failures = Mutex(times)
    }

    var zone: String { inner.zone }
    var deviceID: String { inner.deviceID }
    func syncState() throws -> ZoneSyncState { try inner.syncState() }
    func pendingChanges(limit: Int) throws -> [Envelope] { try inner.pendingChanges(limit: limit) }
    func noteUnreadable(_ name: String, digest: [UInt8]) throws -> Int { try inner.noteUnreadable(name, digest: digest) }
    func quarantinedObjects() throws -> [(id: Int64, name: String, digest: [UInt8])] { try inner.quarantinedObjects() }
    func noteQuarantinedObject(id: Int64, digest: [UInt8], reason: String) throws { try inner.noteQuarantinedObject(id: id, digest: digest, reason: reason) }
    func replayQuarantined() throws -> ApplyReport { try inner.replayQuarantined() }
    func notePublishing(sequence: UInt64, digest: [UInt8]) throws { try inner.notePublishing(sequence: sequence, digest: digest) }
    func publishing(sequence: UInt64) throws -> [UInt8]? { try inner.publishing(sequence: sequence) }
    func wasIngested(_ name: String, digest: [UInt8]) throws -> Bool { try inner.wasIngested(name, digest: digest) }
    func markIngested(_ name: String, digest: [UInt8]) throws { try inner.markIngested(name, digest: digest) }
    func acknowledge(_ sent: [Envelope], sequence: UInt64) throws { try inner.acknowledge(sent, sequence: sequence) }
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

    func apply(_ batches: [IncomingBatch]) throws -> ApplyReport {
        groups.withLock { $0.append(batches.count) }
        let fails = batches.contains { $0.sequence == failing } && failures.withLock { count in defer { count -= 1 }; return count > 0 }
        guard fails else { return try inner.apply(batches) }
        return try inner.store.write("apply, then fail") { db in
            _ = try SyncTables.apply(db, zone: inner.zone, ownDevice: inner.deviceID, batches: batches, deletionsSeen: true) { _, _, _, _ in .applied }
            try db.run("INSERT INTO hosts (id) VALUES (NULL)")  // violates NOT NULL: the transaction rolls back
            return ApplyReport()
        }
    }
}
