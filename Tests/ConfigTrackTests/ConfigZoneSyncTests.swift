import Foundation
import Replication
import Sodium
import XCTest
@testable import ConfigTrack

/// Two devices' config stores replicating through a directory remote with the zone engine.
final class ConfigZoneSyncTests: XCTestCase {
    private var directory = ""
    private var remote: DirectoryRemote!
    private var key: SecretBytes!
    private var a: ConfigStore!
    private var b: ConfigStore!

    override func setUpWithError() throws {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("config-sync-XXXXXX").utf8CString)
        directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
        try FileManager.default.createDirectory(atPath: directory + "/remote", withIntermediateDirectories: true)
        remote = DirectoryRemote(root: directory + "/remote")
        key = try SecretBytes.random(count: 32)
        a = try ConfigStore.create(at: directory + "/a.sqlite", deviceID: "device-a")
        b = try ConfigStore.create(at: directory + "/b.sqlite", deviceID: "device-b")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    @discardableResult
    private func sync(_ store: ConfigStore) throws -> ZoneSyncReport {
        try ZoneEngine(store: ConfigZone(store: store), remote: remote, transportKey: key).run()
    }

    private func dump(_ store: ConfigStore) throws -> [String] {
        try store.hosts().map { "\($0.id) \($0.label) \($0.hostname):\($0.port) \($0.version!)" } + store.groups().map { "\($0.id) \($0.label)" }
    }

    func testChangesFlowOneWayWithoutEchoAndASettledSyncDoesNothing() throws {
        let group = try a.save(HostGroup(label: "prod"))
        try a.save(Host(label: "web", hostname: "web.example", groupID: group.id))
        let sent = try sync(a)
        XCTAssertEqual(sent.sentChanges, 2, "\(sent)")
        XCTAssertEqual(try a.counts().pendingChanges, 0, "acknowledged")
        let received = try sync(b)
        XCTAssertEqual(received.applied, 2)
        XCTAssertEqual(received.sentChanges, 0, "fetched values are not echoed as local edits")
        XCTAssertEqual(try dump(b), try dump(a))
        for store in [a!, b!] {
            let settled = try sync(store)
            XCTAssertEqual([settled.fetchedObjects, settled.applied, settled.sentChanges], [0, 0, 0])
        }
    }

    func testConcurrentEditsConvergeOnTheNewerVersion() throws {
        let host = try a.save(Host(label: "web", hostname: "web.example"))
        try sync(a)
        try sync(b)
        var onA = try a.host("web")
        onA.port = 2222
        try a.save(onA)
        var onB = try b.host("web")
        onB.hostname = "web2.example"
        try b.save(onB)  // later clock: wins as a whole record
        try sync(a)
        try sync(b)
        try sync(a)
        XCTAssertEqual(try dump(a), try dump(b))
        XCTAssertEqual(try a.host(id: host.id)?.hostname, "web2.example")
        XCTAssertEqual(try a.counts().pendingChanges + b.counts().pendingChanges, 0)
    }

    func testADeletionBeatsALaterEditOfTheSameRecord() throws {
        let host = try a.save(Host(label: "web", hostname: "web.example"))
        try sync(a)
        try sync(b)
        try a.removeHost(id: host.id)
        var edited = try b.host("web")
        edited.port = 2200
        try b.save(edited)
        try sync(b)
        try sync(a)
        try sync(b)
        XCTAssertNil(try a.host(id: host.id))
        XCTAssertNil(try b.host(id: host.id))
    }

    /// A store with no records skips looking names up — but not for a name the same
    /// transaction already applied: the older of two versions arriving second still loses.
    func testAFreshStoreKeepsTheNewerOfTwoVersionsArrivingInOneTransaction() throws {
        var host = Host(label: "web", hostname: "old.example")
        try a.save(host)
        let older = try ConfigZone(store: a).pendingChanges(limit: 10)
        host = try a.host("web")
        host.hostname = "new.example"
        try a.save(host)
        let newer = try ConfigZone(store: a).pendingChanges(limit: 10)
        XCTAssertEqual(older.count, 1)
        XCTAssertEqual(newer.count, 1)
        let report = try ConfigZone(store: b).apply([
            IncomingBatch(device: "device-a", sequence: 2, envelopes: newer, rejected: [], advancesCursor: false),
            IncomingBatch(device: "device-a", sequence: 1, envelopes: older, rejected: [], advancesCursor: false),
        ])
        XCTAssertEqual(report.applied, 1)
        XCTAssertEqual(report.ignored, 1)
        XCTAssertEqual(try b.host("web").hostname, "new.example")
    }

    func testChangesTravelInBatchesOfAtMost250() throws {
        for index in 0..<600 { try a.save(Host(label: "h\(index)", hostname: "h\(index).example")) }
        let report = try sync(a)
        XCTAssertEqual(report.sentObjects, 3)
        XCTAssertEqual(try remote.list(prefix: "zones/config/device-a/").filter { $0.hasSuffix(".batch") }.count, 3)
        XCTAssertEqual(try sync(b).applied, 600)
    }

    func testAFailedFetchSendsNothingAndKeepsTheJournal() throws {
        try a.save(Host(label: "web", hostname: "web.example"))
        let missing = DirectoryRemote(root: directory + "/unmounted")
        XCTAssertThrowsError(try ZoneEngine(store: ConfigZone(store: a), remote: missing, transportKey: key).run())
        XCTAssertEqual(try a.counts().pendingChanges, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/unmounted"))
    }

    func testTheRemoteHoldsNoLabelHostnameOrUserInTheClear() throws {
        try a.save(Host(label: "unmistakable-label", hostname: "unmistakable.example", username: "unmistakable-user"))
        try sync(a)
        // A snapshot too: its part and manifest are sealed like batches and published cursors.
        var now = CompactionPolicy()
        now.immediate = true
        XCTAssertEqual(try ZoneEngine(store: ConfigZone(store: a), remote: remote, transportKey: key, policy: now).run().snapshotsWritten, 1)
        let enumerator = FileManager.default.enumerator(atPath: directory + "/remote")
        var files = 0
        while let name = enumerator?.nextObject() as? String {
            guard let data = FileManager.default.contents(atPath: directory + "/remote/" + name) else { continue }
            files += 1
            XCTAssertNil(data.range(of: Data("unmistakable".utf8)), name)
        }
        XCTAssertEqual(files, 4, "a batch, the published cursors, a snapshot part and its manifest")
    }

    func testABatchWaitsForTheGapBeforeIt() throws {
        try a.save(Host(label: "one", hostname: "one.example"))
        try sync(a)
        try a.save(Host(label: "two", hostname: "two.example"))
        try sync(a)
        let first = directory + "/remote/" + Batch.objectName(zone: "config", device: "device-a", sequence: 1)
        try FileManager.default.moveItem(atPath: first, toPath: directory + "/held-back")
        let waiting = try sync(b)
        XCTAssertEqual(waiting.applied, 0, "sequence 2 waits for sequence 1")
        XCTAssertEqual(waiting.waiting, 1, "and the wait is reported")
        try FileManager.default.moveItem(atPath: directory + "/held-back", toPath: first)
        XCTAssertEqual(try sync(b).applied, 2)
    }

    func testAPublishWhoseAcknowledgementWasCutShortIsRecognisedAsOwn() throws {
        try a.save(Host(label: "web", hostname: "web.example"))
        // What a run killed between publishing and acknowledging leaves behind.
        let zone = ConfigZone(store: a)
        let changes = try zone.pendingChanges(limit: 250)
        let batch = Batch(zone: "config", device: "device-a", sequence: try zone.syncState().nextSequence, envelopes: changes)
        _ = try remote.createOnly(batch.objectName, bytes: try BatchCodec.seal(batch, transportKey: key))
        let next = try sync(a)
        XCTAssertEqual([next.foreignObjectsUnderOwnName, next.sentObjects], [0, 0], "no clone alarm, nothing published twice")
        XCTAssertEqual(try a.counts().pendingChanges, 0)
        try a.save(Host(label: "db", hostname: "db.example"))
        XCTAssertEqual(try sync(a).sentObjects, 1)
        XCTAssertEqual(try sync(b).applied, 2)
    }

    func testAPublishCutShortIsOwnEvenAfterTheRecordWasEditedAgain() throws {
        try a.save(Host(label: "web", hostname: "web.example"))
        // What a run killed between publishing and acknowledging leaves behind, as the engine
        // writes it: the intent first, then the object.
        let zone = ConfigZone(store: a)
        let sequence = try zone.syncState().nextSequence
        let batch = Batch(zone: "config", device: "device-a", sequence: sequence, envelopes: try zone.pendingChanges(limit: 250))
        let bytes = try BatchCodec.seal(batch, transportKey: key)
        try zone.notePublishing(sequence: sequence, digest: GenericHash.hash(bytes))
        _ = try remote.createOnly(batch.objectName, bytes: bytes)
        var edited = try a.host("web")
        edited.port = 2222
        try a.save(edited)
        let next = try sync(a)
        XCTAssertEqual([next.foreignObjectsUnderOwnName, next.sentObjects], [0, 1], "its own object, and the newer edit goes out")
        XCTAssertEqual(try a.counts().pendingChanges, 0)
        try sync(b)
        XCTAssertEqual(try b.host("web").port, 2222)
    }

    func testAConflictCopyIsReadOnceSoItCannotFillQuarantine() throws {
        let odd = Envelope(recordName: "printer/x", kind: "printer", formatVersion: 1, version: RecordVersion(clock: 1 << 16, device: "device-c"),
                           deleted: false, incarnation: 0, payload: [1])
        let batch = Batch(zone: "config", device: "device-c", sequence: 1, envelopes: [odd])
        let copy = "zones/config/device-c/00000000000000000001.sync-conflict-20261129-120000-ABC.batch"
        _ = try remote.createOnly(copy, bytes: try BatchCodec.seal(batch, transportKey: key))
        for _ in 0..<5 { try sync(b) }
        XCTAssertEqual(try b.counts().quarantined, 1)
    }
}
