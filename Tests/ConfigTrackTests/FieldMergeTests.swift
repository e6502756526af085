import Foundation
import Replication
import Sodium
import XCTest
@testable import ConfigTrack

/// Field-level merge (docs/concurrent-edits.md) between real stores through a directory remote:
/// edits of different field groups on two devices both survive, in every order of syncs; the
/// losing side of an edit of one group is kept on the device that made it, and only there; an
/// edit made after seeing another keeps nothing.
final class FieldMergeTests: XCTestCase {
    var directory = ""
    var remote: DirectoryRemote!
    var key: SecretBytes!
    var a: ConfigStore!, b: ConfigStore!, c: ConfigStore!

    override func setUpWithError() throws {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("field-merge-XXXXXX").utf8CString)
        directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
        key = try SecretBytes.random(count: 32)
        try reset()
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    /// Fresh stores and remote, with host `cx` made on A and known to B and C.
    func reset() throws {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] { try FileManager.default.removeItem(atPath: directory + "/" + name) }
        try FileManager.default.createDirectory(atPath: directory + "/remote", withIntermediateDirectories: true)
        remote = DirectoryRemote(root: directory + "/remote")
        a = try ConfigStore.create(at: directory + "/a.sqlite", deviceID: "device-a")
        b = try ConfigStore.create(at: directory + "/b.sqlite", deviceID: "device-b")
        c = try ConfigStore.create(at: directory + "/c.sqlite", deviceID: "device-c")
        try a.save(Host(label: "cx", hostname: "cx.example"))
        for store in [a!, b!, c!] { try sync(store) }
    }

    @discardableResult
    func sync(_ store: ConfigStore, compact: Bool = false) throws -> ZoneSyncReport {
        var policy = CompactionPolicy()
        if compact {
            policy.immediate = true
            policy.retireAfter = 0
        }
        return try ZoneEngine(store: ConfigZone(store: store), remote: remote, transportKey: key, policy: policy).run()
    }

    func edit(_ store: ConfigStore, _ change: (inout ConfigTrack.Host) -> Void) throws {
        var host = try store.host("cx")
        change(&host)
        try store.save(host)
    }

    /// The orders of the issue: A first, B first, interleaved (each uploads before seeing the
    /// other's edit), and through a third device that relays A's edit from a snapshot after
    /// A's own batch was collected.
    static let orders = ["A first", "B first", "interleaved", "relayed by C"]

    func syncAll(in order: String) throws {
        switch order {
        case "A first": for store in [a!, b!, a!] { try sync(store) }
        case "B first": for store in [b!, a!, b!] { try sync(store) }
        case "interleaved":
            try sync(a)
            let aside = directory + "/aside"
            try FileManager.default.moveItem(atPath: directory + "/remote/zones/config/device-a", toPath: aside)
            try sync(b)  // sends without having seen A's edit
            try FileManager.default.moveItem(atPath: aside, toPath: directory + "/remote/zones/config/device-a")
            for store in [a!, b!] { try sync(store) }
        default:
            try sync(a)
            try a.save(Host(label: "later", hostname: "later.example"))  // A's edit is no longer its newest batch
            try sync(a)
            try sync(c, compact: true)  // C's snapshot holds A's edit; B counts as retired
            try sync(a, compact: true)  // A's batches that C covered go
            XCTAssertFalse(try remote.list(prefix: "zones/config/device-a/").contains { $0.hasSuffix("00000000000000000002.batch") }, "A's edit reaches B only through C")
            for store in [b!, a!, b!, c!] { try sync(store) }
        }
    }

    func testEditsOfDifferentFieldsOnTwoDevicesBothSurviveInEveryOrder() throws {
        for order in Self.orders {
            try reset()
            try edit(a) { $0.port = 2200 }
            try edit(b) { $0.username = "bob" }
            try syncAll(in: order)
            for store in [a!, b!] {
                let host = try store.host("cx")
                XCTAssertEqual([String(host.port), host.username ?? "-"], ["2200", "bob"], "\(order): the port and the user name both hold")
                XCTAssertEqual(try store.conflicts(), [], "\(order): nothing lost, nothing kept")
                XCTAssertEqual(try store.counts().pendingChanges, 0, order)
            }
        }
    }

    func testTheLosingEditOfOneFieldIsKeptOnlyOnTheDeviceThatMadeIt() throws {
        for order in Self.orders {
            try reset()
            try edit(a) { $0.port = 2200 }
            usleep(2_000)
            try edit(b) { $0.port = 2300 }  // later: wins
            try syncAll(in: order)
            XCTAssertEqual(try a.host("cx").port, 2300, order)
            XCTAssertEqual(try b.host("cx").port, 2300, order)
            let kept = try a.conflicts()
            XCTAssertEqual(kept.map(\.group), ["endpoint"], "\(order): A keeps its losing port")
            XCTAssertEqual(kept.first?.kept, [.text("cx.example"), .integer(2200)], order)
            XCTAssertEqual(kept.first?.winner, [.text("cx.example"), .integer(2300)], order)
            XCTAssertEqual(kept.first?.winnerVersion.device, "device-b", order)
            XCTAssertEqual(try b.conflicts(), [], "\(order): B made no losing edit")
        }
    }

    func testAnEditMadeAfterSeeingAnotherKeepsNothing() throws {
        try edit(a) { $0.port = 2200 }
        try sync(a)
        try sync(c)
        try edit(c) { $0.port = 2300 }  // C saw A's port
        try sync(c)
        try sync(b)
        try edit(b) { $0.port = 2400 }  // B saw C's, which saw A's
        try sync(b)
        // A receives B's before C's: B's still covers A's own edit.
        let cBatch = directory + "/remote/zones/config/device-c"
        try FileManager.default.moveItem(atPath: cBatch, toPath: directory + "/aside")
        try sync(a)
        try FileManager.default.moveItem(atPath: directory + "/aside", toPath: cBatch)
        for store in [a!, b!, c!, a!] { try sync(store) }
        for store in [a!, b!, c!] {
            XCTAssertEqual(try store.host("cx").port, 2400)
            XCTAssertEqual(try store.conflicts(), [])
        }
    }

    func testASaveThatChangesNothingWritesAndSendsNothing() throws {
        let before = try a.host("cx")
        XCTAssertEqual(try a.save(before).version, before.version)
        XCTAssertEqual(try a.counts().pendingChanges, 0)
        XCTAssertEqual(try sync(a).sentChanges, 0)
    }

    /// A record of format 1 (an older build's) has one version for every field: it merges like
    /// a write of every group, and A's edit, already sent, loses without being kept — the older
    /// format cannot say what its writer had seen.
    func testAFormat1EditMergesAsAWriteOfEveryGroup() throws {
        try edit(a) { $0.port = 2200 }
        try sync(a)
        var old = try b.host("cx")
        old.username = "from-an-older-build"
        let version = RecordVersion(clock: (HybridLogicalClock.wallMilliseconds() + 60_000) << 16, device: "device-o")
        let envelope = Envelope(recordName: old.recordName, kind: "host", formatVersion: 1, version: version, deleted: false, incarnation: 0,
                                payload: ConfigPayload.encode(old.columnValues.map(\.sqlValue)))
        let batch = Batch(zone: "config", device: "device-o", sequence: 1, envelopes: [envelope])
        _ = try remote.createOnly(batch.objectName, bytes: try BatchCodec.seal(batch, transportKey: key))
        try sync(a)
        let host = try a.host("cx")
        XCTAssertEqual([String(host.port), host.username ?? "-"], ["22", "from-an-older-build"])
        XCTAssertEqual(try a.conflicts(), [])
    }

    /// B removes cx; A, not knowing, changes its port later. A keeps the port (newer than the
    /// deletion); restoring it brings cx back everywhere, as the next incarnation of its record.
    func testAKeptValueOfARemovedHostBringsTheHostBackAsItsNextIncarnation() throws {
        let id = try a.host("cx").id
        try b.removeHost(id: id)
        usleep(2_000)
        try edit(a) { $0.port = 2200 }
        for store in [a!, b!, a!] { try sync(store) }
        XCTAssertNil(try a.host(id: id))
        let kept = try XCTUnwrap(try a.conflicts().first)
        XCTAssertTrue(kept.winnerDeleted)
        XCTAssertEqual(kept.kept, [.text("cx.example"), .integer(2200)])
        XCTAssertEqual(try b.conflicts(), [])

        try a.restoreConflict(kept.id)
        try a.dropConflict(kept.id)
        XCTAssertEqual(try a.host(id: id)?.port, 2200)
        for store in [a!, b!, c!] { try sync(store) }
        for store in [b!, c!] {
            XCTAssertEqual(try store.host(id: id)?.port, 2200, "the later incarnation beats the deletion")
            XCTAssertEqual(try store.conflicts(), [])
        }
        // Removing it again ends the new incarnation too.
        try b.removeHost(id: id)
        for store in [b!, a!] { try sync(store) }
        XCTAssertNil(try a.host(id: id))
    }

    /// A kept value that names a secret keeps that secret in use: collecting it as an orphan
    /// would leave the restored value naming a body that is gone.
    func testASecretAKeptValueNamesIsStillInUse() throws {
        var host = try a.host("cx")
        let reference = SecretReference.hostPassword(host.id)
        host.passwordRef = reference
        host.authMethod = .password
        let group = Host.fieldGroups[3]
        try a.write("keep") { db in
            try ConfigStore.keepConflict(db, Host.self, recordName: host.recordName, group: group, record: host.columnValues.map(\.sqlValue),
                                         keptVersion: RecordVersion(clock: 5 << 16, device: "device-a"), winner: [.text("agent"), .null, .null],
                                         winnerVersion: RecordVersion(clock: 6 << 16, device: "device-b"))
        }
        try a.save(Host(label: "zz", hostname: "zz.example", authMethod: .password, passwordRef: nil))
        let used = try a.referencedSecretKeys()
        XCTAssertTrue(used.contains(reference.key))
        XCTAssertEqual(used, used.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, "still sorted by bytes")
    }

    /// A's port edit is sent; B removes cx later without having seen it. The removal says what B
    /// had seen, so A keeps its edit whatever the order (and from B's snapshot too); B keeps
    /// nothing, and a removal made after seeing the edit keeps nothing anywhere.
    func testAnEditARemovalElsewhereHadNotSeenIsKeptWhereItWasMade() throws {
        for order in Self.orders + ["from a snapshot"] {
            try reset()
            let id = try a.host("cx").id
            try edit(a) { $0.port = 2200 }
            try sync(a)
            usleep(2_000)
            try b.removeHost(id: id)  // later, but without A's edit
            if order == "from a snapshot" {
                for store in [b!, a!] { try sync(store, compact: true) }
            } else {
                try syncAll(in: order)
            }
            for store in [a!, b!] { try sync(store) }
            XCTAssertNil(try a.host(id: id), order)
            let kept = try a.conflicts()
            XCTAssertEqual(kept.map(\.group), ["endpoint"], order)
            XCTAssertEqual(kept.first?.kept, [.text("cx.example"), .integer(2200)], order)
            XCTAssertEqual(kept.first?.winnerDeleted, true, order)
            XCTAssertEqual(try b.conflicts(), [], order)
        }
        try reset()
        let id = try a.host("cx").id
        try edit(a) { $0.port = 2200 }
        try sync(a)
        try sync(b)
        try b.removeHost(id: id)  // after seeing it
        for store in [b!, a!, c!] { try sync(store) }
        for store in [a!, b!, c!] { XCTAssertEqual(try store.conflicts(), []) }
        XCTAssertEqual(try sync(b).sentChanges, 0)
    }

    /// A removal that cannot be its deletion's (its context misses the deletion itself) is
    /// quarantined; the tombstone still applies, judged as a deletion without one.
    func testAMalformedRemovalIsQuarantinedAndItsTombstoneStillApplies() throws {
        let host = try a.host("cx")
        let version = RecordVersion(clock: (HybridLogicalClock.wallMilliseconds() + 60_000) << 16, device: "device-o")
        var payload = ByteWriter()
        VersionContext(["device-x": 5]).encode(into: &payload)
        let envelopes = [
            Envelope(recordName: "removal/" + host.recordName, kind: "removal", formatVersion: 2, version: version, deleted: false, incarnation: 0, payload: payload.bytes),
            Envelope(recordName: host.recordName, kind: "host", formatVersion: 1, version: version, deleted: true, incarnation: 0, payload: []),
        ]
        let batch = Batch(zone: "config", device: "device-o", sequence: 1, envelopes: envelopes)
        _ = try remote.createOnly(batch.objectName, bytes: try BatchCodec.seal(batch, transportKey: key))
        try sync(a)
        XCTAssertNil(try a.host(id: host.id))
        XCTAssertEqual(try a.quarantined().map(\.reason), ["invalid removal payload"])
    }
}
