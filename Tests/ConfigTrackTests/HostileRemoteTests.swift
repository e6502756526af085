import Foundation
@testable import Replication
import Sodium
import XCTest
@testable import ConfigTrack
import struct Identifiers.UUID

/// Whatever numbers a remote serves — in object names, envelopes, snapshot and cursor vectors —
/// a sync never traps: a value out of range is quarantined or refused with a reason, and the
/// next sync runs as well as the first. An object quarantined whole is read again once repaired.
final class HostileRemoteTests: ConfigTestCase {
    fileprivate var remote: DirectoryRemote!
    fileprivate var key: SecretBytes!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(atPath: directory + "/remote", withIntermediateDirectories: true)
        remote = DirectoryRemote(root: directory + "/remote")
        key = try SecretBytes.random(count: 32)
    }

    @discardableResult
    private func sync() throws -> ZoneSyncReport { try ZoneEngine(store: ConfigZone(store: store), remote: remote, transportKey: key).run() }

    private func hostEnvelope(_ label: String, incarnation: Int64 = 0, clock: UInt64 = 7 << 16) -> Envelope {
        let host = Host(label: label, hostname: "\(label).example")
        return Envelope(recordName: host.recordName, kind: Host.kind, formatVersion: ConfigPayload.formatVersion,
                        version: RecordVersion(clock: clock, device: "device-a"), deleted: false, incarnation: incarnation,
                        payload: ConfigPayload.encode(host.columnValues.map(\.sqlValue)))
    }

    fileprivate func write(_ name: String, _ bytes: [UInt8]) throws {
        let path = directory + "/remote/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private func sealed(_ envelopes: [Envelope], sequence: UInt64, key: SecretBytes? = nil) throws -> [UInt8] {
        try BatchCodec.seal(Batch(zone: "config", device: "device-a", sequence: sequence, envelopes: envelopes), transportKey: key ?? self.key)
    }

    func testObjectNamesNumberedPastAnyDevicesAreQuarantinedByNameOnce() throws {
        let names = ["zones/config/device-a/18446744073709551615.batch", "zones/config/device-b/00000281474976710657.batch",
                     "zones/config/device-c/snap-18446744073709551615.snapshot", "zones/config/device-c/cursors-18446744073709551615.cursors"]
        for name in names { try write(name, [1, 2, 3]) }
        try write(Batch.objectName(zone: "config", device: "device-a", sequence: 1), try sealed([hostEnvelope("real")], sequence: 1))
        let first = try sync()
        XCTAssertEqual([first.applied, first.quarantined], [1, 4])
        XCTAssertEqual(Set(try store.quarantined().map(\.recordName)), Set(names))
        XCTAssertTrue(try store.quarantined().allSatisfy { $0.reason.contains("numbered past 281474976710656") })
        XCTAssertEqual(try sync().quarantined, 0, "each name is quarantined once, not on every sync")
        XCTAssertEqual(try store.counts().quarantined, 4)
        XCTAssertNotNil(try store.host("real"))
    }

    func testExtremeIncarnationsClocksAndPortsInEnvelopesAreQuarantined() throws {
        var values = try XCTUnwrap(ConfigPayload.decode(hostEnvelope("p").payload, count: Host.columns.count))
        values[2] = .integer(.min)
        let negativePort = Envelope(recordName: "host/" + CanonicalUUID.text(UUID()), kind: "host", formatVersion: 1,
                                    version: RecordVersion(clock: 7 << 16, device: "device-a"), deleted: false, incarnation: 0, payload: ConfigPayload.encode(values))
        values[2] = .integer(.max)
        let hugePort = Envelope(recordName: "host/" + CanonicalUUID.text(UUID()), kind: "host", formatVersion: 1,
                                version: RecordVersion(clock: 7 << 16, device: "device-a"), deleted: false, incarnation: 0, payload: ConfigPayload.encode(values))
        let envelopes = [hostEnvelope("a", incarnation: .max), hostEnvelope("b", incarnation: -1), hostEnvelope("c", incarnation: .min),
                         hostEnvelope("d", clock: .max), hostEnvelope("e", clock: UInt64(Int64.max)), negativePort, hugePort, hostEnvelope("fine")]
        try write(Batch.objectName(zone: "config", device: "device-a", sequence: 1), try sealed(envelopes, sequence: 1))
        let report = try sync()
        XCTAssertEqual([report.applied, report.quarantined], [1, 7])
        let reasons = try store.quarantined().map(\.reason)
        XCTAssertEqual(reasons.filter { $0 == "incarnation out of range" }.count, 3, "\(reasons)")
        XCTAssertEqual(reasons.filter { $0 == "clock out of range" }.count, 2, "\(reasons)")
        XCTAssertTrue(reasons.contains("invalid host: The port must be between 1 and 65535, not -9223372036854775808."), "\(reasons)")
        XCTAssertTrue(reasons.contains("invalid host: The port must be between 1 and 65535, not 9223372036854775807."), "\(reasons)")
        // The clock did not move to the hostile value: a local edit still gets an ordinary version.
        let saved = try store.save(Host(label: "local", hostname: "l.example"))
        XCTAssertLessThan(try XCTUnwrap(saved.version).clock, UInt64(Int64.max))
        try sync()
    }

    func testSnapshotsAndPublishedCursorsWithExtremeVectorsAreNeverUsed() throws {
        for sequence: UInt64 in 1...2 {
            try write(Batch.objectName(zone: "config", device: "device-a", sequence: sequence), try sealed([hostEnvelope("h\(sequence)")], sequence: sequence))
        }
        let vector: [String: UInt64] = ["device-a": .max, "device-b": Batch.maximumSequence + 1]
        let manifest = SnapshotManifest(zone: "config", device: "device-x", number: 1, createdAt: .max, cursors: vector, parts: [])
        try write(manifest.name.objectName(zone: "config"), try CompactionCodec.seal(manifest, transportKey: key))
        let published = PublishedCursors(zone: "config", device: "device-x", number: 1, writtenAt: .max, cursors: vector)
        try write(published.name.objectName(zone: "config"), try CompactionCodec.seal(published, transportKey: key))
        XCTAssertThrowsError(try CompactionCodec.openCursors(try CompactionCodec.seal(published, transportKey: key), zone: "config",
                                                             device: "device-x", number: 1, transportKey: key)) { error in
            XCTAssertTrue((error as? ReplicationError)?.message.contains("beyond any device's") == true, "\(error)")
        }
        // A joining device would start from a snapshot: this one never opens, so history is read.
        var policy = CompactionPolicy()
        policy.snapshotAfterBatches = 1
        let report = try ZoneEngine(store: ConfigZone(store: store), remote: remote, transportKey: key, policy: policy).run()
        XCTAssertEqual(report.applied, 2)
        XCTAssertEqual(report.snapshotsRead, 0)
        XCTAssertEqual(try store.hosts().map(\.label), ["h1", "h2"])
        try sync()
    }

    func testAQuarantinedBatchThatIsRepairedOnTheRemoteIsAppliedByTheNextSync() throws {
        let name = Batch.objectName(zone: "config", device: "device-a", sequence: 1)
        let good = try sealed([hostEnvelope("repaired")], sequence: 1)
        try write(name, try sealed([hostEnvelope("repaired")], sequence: 1, key: try SecretBytes.random(count: 32)))
        try write(Batch.objectName(zone: "config", device: "device-a", sequence: 2), try sealed([hostEnvelope("later")], sequence: 2))
        for _ in 1..<SyncTables.attemptsBeforeQuarantine { XCTAssertEqual(try sync().waiting, 1) }
        XCTAssertEqual(try sync().quarantined, 1)
        XCTAssertEqual(try store.hosts().map(\.label), ["later"], "the device's later batches flow past it")
        XCTAssertEqual(try store.quarantineSummary().unreadableObjects, [name])
        XCTAssertEqual(try sync().applied, 0, "the same bytes are not opened again")

        try write(name, Array(good.prefix(10)))
        XCTAssertEqual(try sync().applied, 0, "other bytes that still do not open")
        XCTAssertEqual(try store.quarantined().count, 1)
        try write(name, good)
        let repaired = try sync()
        XCTAssertEqual(repaired.applied, 1)
        XCTAssertEqual(try store.hosts().map(\.label), ["later", "repaired"])
        XCTAssertEqual(try store.counts().quarantined, 0)
        XCTAssertEqual(try store.quarantineSummary(), QuarantineSummary(unreadableObjects: [], dropped: 0))
        XCTAssertEqual(try sync().applied, 0, "applied once")
    }

    func testQuarantineIsBoundedAndWhatWasDroppedIsCounted() throws {
        let limit = SyncTables.quarantineLimit.entries
        let garbage = (0..<(limit + 50)).map { index in
            Envelope(recordName: "host/" + CanonicalUUID.text(UUID()), kind: "host", formatVersion: 1,
                     version: RecordVersion(clock: 7 << 16, device: "device-a"), deleted: false, incarnation: 0, payload: [0, 9, UInt8(index & 0xff)])
        }
        for (index, start) in stride(from: 0, to: garbage.count, by: Batch.maximumChanges).enumerated() {
            let chunk = Array(garbage[start..<min(start + Batch.maximumChanges, garbage.count)])
            let sequence = UInt64(index + 1)
            try write(Batch.objectName(zone: "config", device: "device-a", sequence: sequence), try sealed(chunk, sequence: sequence))
        }
        XCTAssertEqual(try sync().quarantined, limit + 50)
        XCTAssertEqual(try store.counts().quarantined, limit)
        XCTAssertEqual(try store.quarantineSummary().dropped, 50)
        XCTAssertEqual(try store.quarantined().last?.recordName, garbage.last?.recordName, "the newest are kept")
    }
}

/// Counts reads per object name, to show what a sync does not download.
private final class CountingRemote: Remote, @unchecked Sendable {
    let inner: DirectoryRemote
    private(set) var reads: [String: Int] = [:]
    init(_ inner: DirectoryRemote) { self.inner = inner }
    var location: String { inner.location }
    func list(prefix: String) throws -> [String] { try inner.list(prefix: prefix) }
    func get(_ name: String) throws -> [UInt8]? {
        reads[name, default: 0] += 1
        return try inner.get(name)
    }
    func fingerprint(_ name: String) throws -> String? { try inner.fingerprint(name) }
    func createOnly(_ name: String, bytes: [UInt8]) throws -> CreateOutcome { try inner.createOnly(name, bytes: bytes) }
    func delete(_ name: String) throws { try inner.delete(name) }
}

extension HostileRemoteTests {
    func testAConflictCopyThatDoesNotOpenIsNotDownloadedAgainUntilItChanges() throws {
        let counting = CountingRemote(remote)
        let copy = "zones/config/device-a/00000000000000000001.sync-conflict-20261201-120000-ABCDEFG.batch"
        try write(copy, Array(repeating: 0x55, count: 90))
        let engine = ZoneEngine(store: ConfigZone(store: store), remote: counting, transportKey: key)
        _ = try engine.run()
        _ = try engine.run()
        XCTAssertEqual(counting.reads[copy], 1, "garbage is read once")
        XCTAssertEqual(try store.counts().quarantined, 0, "a copy never fills quarantine")
        // A sync tool delivers the real bytes under the same name: read again, applied.
        try FileManager.default.removeItem(atPath: directory + "/remote/" + copy)
        try write(copy, try BatchCodec.seal(Batch(zone: "config", device: "device-a", sequence: 1, envelopes: [Self.envelope("from-copy")]), transportKey: key))
        XCTAssertEqual(try engine.run().applied, 1)
        XCTAssertEqual(counting.reads[copy], 2)
        XCTAssertNotNil(try store.host("from-copy"))
    }

    private static func envelope(_ label: String) -> Envelope {
        let host = Host(label: label, hostname: "\(label).example")
        return Envelope(recordName: host.recordName, kind: Host.kind, formatVersion: ConfigPayload.formatVersion,
                        version: RecordVersion(clock: 7 << 16, device: "device-a"), deleted: false, incarnation: 0,
                        payload: ConfigPayload.encode(host.columnValues.map(\.sqlValue)))
    }
}

extension HostileRemoteTests {
    /// A file no device wrote, larger than any object (a sparse 65 MiB): as a batch, a conflict
    /// copy or a snapshot manifest it is handled as unreadable, and the zone goes on syncing.
    func testAnOversizedObjectIsUnreadableNotAStopForTheZone() throws {
        let batch = "zones/config/device-x/00000000000000000001.batch"
        for name in [batch, "zones/config/device-x/00000000000000000002.sync-conflict-20261201-120000-ABCDEFG.batch",
                     "zones/config/device-y/snap-00000000000000000001.snapshot"] {
            try write(name, [])
            XCTAssertEqual(truncate(directory + "/remote/" + name, off_t(DirectoryRemote.maximumObjectSize + 1)), 0)
        }
        try write(Batch.objectName(zone: "config", device: "device-a", sequence: 1),
                  try BatchCodec.seal(Batch(zone: "config", device: "device-a", sequence: 1, envelopes: [Self.envelope("beside-it")]), transportKey: key))
        XCTAssertEqual(try sync().applied, 1)
        for _ in 1..<SyncTables.attemptsBeforeQuarantine { try sync() }
        XCTAssertEqual(try store.quarantined().map(\.reason), ["the object is empty or larger than 64 MiB"])
        XCTAssertEqual(try store.quarantineSummary().unreadableObjects, [batch])
        // Replaced by a real batch of that device: read again, applied, out of quarantine.
        try FileManager.default.removeItem(atPath: directory + "/remote/" + batch)
        try write(batch, try BatchCodec.seal(Batch(zone: "config", device: "device-x", sequence: 1, envelopes: [Self.envelope("repaired-x")]), transportKey: key))
        XCTAssertEqual(try sync().applied, 1)
        XCTAssertNotNil(try store.host("repaired-x"))
        XCTAssertEqual(try store.counts().quarantined, 0)
    }
}

extension HostileRemoteTests {
    /// A forged record 300 days ahead (inside the year a clock may be off) that breaks a rule is
    /// quarantined and does not drag this device's clock along: its next edit is stamped now.
    func testAQuarantinedRecordDoesNotMoveTheClock() throws {
        let ahead = (HybridLogicalClock.wallMilliseconds() + 300 * 86_400_000) << HybridLogicalClock.counterBits
        let forged = Host(label: "forged", hostname: "f.example", username: "x$IFS")
        let envelope = Envelope(recordName: forged.recordName, kind: Host.kind, formatVersion: ConfigPayload.formatVersion,
                                version: RecordVersion(clock: ahead, device: "device-a"), deleted: false, incarnation: 0,
                                payload: ConfigPayload.encode(forged.columnValues.map(\.sqlValue)))
        try write(Batch.objectName(zone: "config", device: "device-a", sequence: 1),
                  try BatchCodec.seal(Batch(zone: "config", device: "device-a", sequence: 1, envelopes: [envelope]), transportKey: key))
        XCTAssertEqual(try sync().quarantined, 1)
        let saved = try store.save(Host(label: "local", hostname: "l.example"))
        XCTAssertLessThan(try XCTUnwrap(saved.version).clock, ahead)
    }
}

extension HostileRemoteTests {
    /// An object quarantined whole is downloaded again only when the remote says it changed.
    func testAQuarantinedObjectIsNotDownloadedAgainUntilItChanges() throws {
        let counting = CountingRemote(remote)
        let name = Batch.objectName(zone: "config", device: "device-x", sequence: 1)
        try write(name, Array(repeating: 0x43, count: 80))
        let engine = ZoneEngine(store: ConfigZone(store: store), remote: counting, transportKey: key)
        for _ in 0..<SyncTables.attemptsBeforeQuarantine { _ = try engine.run() }
        XCTAssertEqual(try store.quarantineSummary().unreadableObjects, [name])
        let reads = counting.reads[name] ?? 0
        for _ in 0..<3 { _ = try engine.run() }
        XCTAssertLessThanOrEqual(counting.reads[name] ?? 0, reads + 1, "read at most once more, then remembered by its fingerprint")
        let settled = counting.reads[name] ?? 0
        _ = try engine.run()
        XCTAssertEqual(counting.reads[name], settled)
        try FileManager.default.removeItem(atPath: directory + "/remote/" + name)
        try write(name, try BatchCodec.seal(Batch(zone: "config", device: "device-x", sequence: 1, envelopes: [Self.envelope("changed")]), transportKey: key))
        XCTAssertEqual(try engine.run().applied, 1)
        XCTAssertEqual(counting.reads[name], settled + 1)
        XCTAssertEqual(try store.counts().quarantined, 0)
    }
}
