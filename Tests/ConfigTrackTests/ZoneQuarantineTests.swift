import Foundation
@testable import Replication
import Sodium
import XCTest
@testable import ConfigTrack
import struct Identifiers.UUID

/// What cannot be applied is kept with its reason and counted, while healthy records in the same
/// fetch still apply; an object that does not open yet is retried before it is quarantined.
final class ZoneQuarantineTests: XCTestCase {
    private var directory = ""
    private var remote: DirectoryRemote!
    private var key: SecretBytes!
    private var store: ConfigStore!

    override func setUpWithError() throws {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("quarantine-XXXXXX").utf8CString)
        directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
        try FileManager.default.createDirectory(atPath: directory + "/remote", withIntermediateDirectories: true)
        remote = DirectoryRemote(root: directory + "/remote")
        key = try SecretBytes.random(count: 32)
        store = try ConfigStore.create(at: directory + "/b.sqlite", deviceID: "device-b")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    private func sync() throws -> ZoneSyncReport { try ZoneEngine(store: ConfigZone(store: store), remote: remote, transportKey: key).run() }

    /// A valid host envelope as another device would send it.
    private func hostEnvelope(_ label: String, clock: UInt64 = 1) throws -> Envelope {
        let writer = try ConfigStore.create(at: directory + "/writer-\(label).sqlite", deviceID: "device-a")
        try writer.save(Host(label: label, hostname: "\(label).example"))
        return try XCTUnwrap(try ConfigZone(store: writer).pendingChanges(limit: 10).first)
    }

    private func publish(_ envelopes: [Envelope], sequence: UInt64, key: SecretBytes? = nil) throws {
        let batch = Batch(zone: "config", device: "device-a", sequence: sequence, envelopes: envelopes)
        _ = try remote.createOnly(batch.objectName, bytes: try BatchCodec.seal(batch, transportKey: key ?? self.key))
    }

    func testUnknownKindUnknownFormatAndMalformedPayloadAreQuarantinedBesideAHealthyRecord() throws {
        let healthy = try hostEnvelope("healthy")
        let version = RecordVersion(clock: 5 << 16, device: "device-a")
        let unknownKind = Envelope(recordName: "printer/x", kind: "printer", formatVersion: 1, version: version, deleted: false, incarnation: 0, payload: [1])
        let newFormat = Envelope(recordName: "host/" + CanonicalUUID.text(UUID()), kind: "host", formatVersion: 2,
                                 version: version, deleted: false, incarnation: 0, payload: [1])
        let garbage = Envelope(recordName: "host/" + CanonicalUUID.text(UUID()), kind: "host", formatVersion: 1, version: version,
                               deleted: false, incarnation: 0, payload: [0, 9, 9])
        try publish([unknownKind, newFormat, garbage, healthy], sequence: 1)
        let report = try sync()
        XCTAssertEqual(report.quarantined, 3)
        XCTAssertEqual(report.applied, 1)
        XCTAssertEqual(try store.hosts().map(\.label), ["healthy"])
        XCTAssertEqual(try store.counts().quarantined, 3)
    }

    func testHealthyRecordsInTheSameBatchApply() throws {
        let healthy = try hostEnvelope("healthy")
        let garbage = Envelope(recordName: "host/" + CanonicalUUID.text(UUID()), kind: "host", formatVersion: 1,
                               version: RecordVersion(clock: 5 << 16, device: "device-a"), deleted: false, incarnation: 0, payload: [0, 9, 9])
        try publish([garbage, healthy], sequence: 1)
        let report = try sync()
        XCTAssertEqual([report.applied, report.quarantined], [1, 1])
        XCTAssertEqual(try store.hosts().map(\.label), ["healthy"])
    }

    func testABatchSealedWithAnotherKeyIsRetriedThenQuarantinedAndLaterBatchesFlow() throws {
        try publish([try hostEnvelope("lost")], sequence: 1, key: try SecretBytes.random(count: 32))
        try publish([try hostEnvelope("after")], sequence: 2)
        for _ in 1..<SyncTables.attemptsBeforeQuarantine {
            let waiting = try sync()
            XCTAssertEqual([waiting.waiting, waiting.applied, waiting.quarantined], [1, 0, 0])
        }
        let report = try sync()
        XCTAssertEqual([report.quarantined, report.applied], [1, 1])
        XCTAssertEqual(try store.hosts().map(\.label), ["after"])
        XCTAssertEqual(try store.counts().quarantined, 1)
    }

    func testAnObjectStillBeingCopiedIsRetriedAndAppliedOnceComplete() throws {
        let batch = Batch(zone: "config", device: "device-a", sequence: 1, envelopes: [try hostEnvelope("slow")])
        let sealed = try BatchCodec.seal(batch, transportKey: key)
        let path = directory + "/remote/" + batch.objectName
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // A sync tool writing in place: a growing prefix each run, never the same bytes twice.
        for length in [sealed.count / 4, sealed.count / 2, sealed.count * 3 / 4] {
            try Data(sealed.prefix(length)).write(to: URL(fileURLWithPath: path))
            XCTAssertEqual(try sync().waiting, 1)
        }
        try Data(sealed).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try sync().applied, 1)
        XCTAssertEqual(try store.counts().quarantined, 0)
    }

    func testARecordThatBreaksTheFieldRulesIsQuarantinedBeforeAnythingIsWritten() throws {
        let good = try hostEnvelope("fine")
        var values = Host(label: "fine", hostname: "fine.example").columnValues.map(\.sqlValue)
        values[2] = .text("twenty-two")  // the port
        let bad = Envelope(recordName: good.recordName, kind: "host", formatVersion: 1, version: good.version, deleted: false,
                           incarnation: 0, payload: ConfigPayload.encode(values))
        values[2] = .integer(22)
        values[1] = .text("-oProxyCommand=touch /tmp/x")  // the hostname
        let hostile = Envelope(recordName: "host/" + CanonicalUUID.text(UUID()), kind: "host", formatVersion: 1, version: good.version,
                               deleted: false, incarnation: 0, payload: ConfigPayload.encode(values))
        try publish([bad, hostile], sequence: 1)
        XCTAssertEqual(try sync().quarantined, 2)
        XCTAssertEqual(try store.hosts(), [])
    }

    func testWhatANewerBuildWroteIsKeptWholeAndAppliesOnceThisBuildUnderstandsIt() throws {
        let version = RecordVersion(clock: 5 << 16, device: "device-a")
        let newer = Envelope(recordName: "host/" + CanonicalUUID.text(UUID()), kind: "host", formatVersion: 3, version: version, deleted: false,
                             incarnation: 0, payload: [7, 7])
        let damaged = Envelope(recordName: "host/" + CanonicalUUID.text(UUID()), kind: "host", formatVersion: 1, version: version,
                               deleted: false, incarnation: 0, payload: [0, 9, 9])
        try publish([newer, damaged], sequence: 1)
        XCTAssertEqual(try sync().quarantined, 2)
        let entries = try store.quarantined()
        XCTAssertEqual(entries.map(\.awaitsUpgrade), [true, false], "only the newer format waits for an upgrade")
        // Every later sync tries it again; this build still cannot read it, so it stays.
        XCTAssertEqual(try sync().applied, 0)
        XCTAssertEqual(try store.quarantined(), entries)

        // What an older build quarantined as unsupported — a host record of format 2, written by
        // this build — is what this build sees after an upgrade: the next sync applies it and
        // clears the entry.
        let host = try hostEnvelope("from-the-future")
        XCTAssertEqual(host.formatVersion, FieldPayload.formatVersion)
        try store.write("quarantine as an older build would") { db in
            try Journal.quarantine(db, zone: "config", recordName: host.recordName, reason: "unsupported host format version 2",
                                   bytes: host.payload, at: version, envelope: BatchCodec.encode(host))
        }
        let upgraded = try sync()
        XCTAssertEqual(upgraded.applied, 1)
        XCTAssertEqual(try store.hosts().map(\.label), ["from-the-future"])
        XCTAssertEqual(try store.quarantined(), entries, "the rest is untouched")
        XCTAssertEqual(try sync().applied, 0, "applied once")
    }

    func testADiscardedEntryIsGoneForGood() throws {
        let garbage = Envelope(recordName: "host/" + CanonicalUUID.text(UUID()), kind: "host", formatVersion: 1,
                               version: RecordVersion(clock: 5 << 16, device: "device-a"), deleted: false, incarnation: 0, payload: [0, 9, 9])
        try publish([garbage], sequence: 1)
        _ = try sync()
        let entry = try XCTUnwrap(try store.quarantined().first)
        XCTAssertTrue(try store.discardQuarantined(id: entry.id))
        XCTAssertFalse(try store.discardQuarantined(id: entry.id))
        XCTAssertEqual(try store.counts().quarantined, 0)
        XCTAssertEqual(try sync().quarantined, 0, "the object is not fetched again")
    }
}
