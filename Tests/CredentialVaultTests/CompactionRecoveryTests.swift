import Foundation
@testable import Replication
import Sodium
import Synchronization
import XCTest
@testable import ConfigTrack
@testable import SecretTrack

/// Compaction when things go wrong: snapshots cut short, deletions refused, devices restored
/// from old backups, batches from newer builds — nothing is lost and nobody stays stuck.
final class CompactionRecoveryTests: CompactionTestCase {
    /// A device restored from a backup while the sync tool brings its later batches back in
    /// any order (its newest one first): it sends nothing until it has read them all — a new
    /// batch would take their names — and then holds everything it had published.
    func testARestoredDeviceReadsItsOwnLateBatchesBeforeSendingAgain() throws {
        let a = try device("a"), b = try device("b")
        try a.addHost(label: "first", password: nil)
        try sync(a)
        let saved = directory + "/backup"
        try FileManager.default.createDirectory(atPath: saved, withIntermediateDirectories: true)
        for file in ["a-config.sqlite", "a-secrets.sqlite"] {
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: directory + "/" + file + suffix) {
                try FileManager.default.copyItem(atPath: directory + "/" + file + suffix, toPath: saved + "/" + file + suffix)
            }
        }
        try a.addHost(label: "made-after-backup", password: nil)
        try sync(a)
        try a.addHost(label: "also-after-backup", password: nil)
        try sync(a)
        try sync(b)
        for file in ["a-config.sqlite", "a-secrets.sqlite"] {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: directory + "/" + file + suffix) }
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: saved + "/" + file + suffix) {
                try FileManager.default.copyItem(atPath: saved + "/" + file + suffix, toPath: directory + "/" + file + suffix)
            }
        }
        let restored = try SimulatedDevice(reopening: "a", directory: directory)
        let late = directory + "/remote/zones/config/a/00000000000000000002.batch", aside = directory + "/late"
        try FileManager.default.moveItem(atPath: late, toPath: aside)
        try restored.addHost(label: "after-restore", password: nil)
        let held = try sync(restored)[0]
        XCTAssertTrue(held.ownObjectsAhead)
        XCTAssertEqual(held.sentChanges, 0, "nothing sent while its own batch 2 is missing")
        try FileManager.default.moveItem(atPath: aside, toPath: late)
        for _ in 0..<2 { try sync(restored) }
        try sync(b)
        XCTAssertEqual(Set(try restored.config.hosts().map(\.label)), ["first", "made-after-backup", "also-after-backup", "after-restore"])
        try assertSame(restored, as: try b.dump())
        XCTAssertEqual(try batches("config")["a"], [1, 2, 3, 4])
    }

    /// A batch this build cannot read (a newer build's format) is quarantined whole. This
    /// build's snapshot claims its writer only up to before it, so collection keeps it for
    /// whoever can read it, and a device joining from that snapshot still quarantines it.
    func testABatchQuarantinedWholeIsNeverCoveredByThisBuildsSnapshot() throws {
        let a = try device("a"), n = try device("n")
        try n.addHost(label: "from-newer-build", password: nil)
        try sync(n)
        let name = "zones/config/n/00000000000000000001.batch"
        let context = BatchCodec.context(zone: "config", device: "n", sequence: 1)
        var plain = try SealedBox.open(try XCTUnwrap(try remote.get(name)), key: transport, purpose: BatchCodec.purpose, context: context).withUnsafeBytes { Array($0) }
        plain[0] = 2
        try remote.delete(name)
        _ = try remote.createOnly(name, bytes: try SealedBox.seal(plain, key: transport, purpose: BatchCodec.purpose, context: context))
        for round in 0..<3 {
            try n.addHost(label: "later-\(round)", password: nil)
            try sync(n)
        }
        try sync(a, policy: now)
        XCTAssertEqual(try a.config.quarantined().count, 1)
        let manifest = try XCTUnwrap(try remote.list(prefix: "zones/config/a/").first { $0.hasSuffix(".snapshot") })
        let opened = try CompactionCodec.openManifest(try XCTUnwrap(try remote.get(manifest)), zone: "config", device: "a", number: 1, transportKey: transport)
        XCTAssertNil(opened.cursors["n"], "a's snapshot holds nothing of n before the batch it cannot read")
        try sync(a, policy: now)
        XCTAssertNotNil(try remote.get(name), "no snapshot that holds it: kept")
        let joiner = try device("j")
        XCTAssertEqual(try sync(joiner)[0].quarantined, 1, "the joiner holds it for a later upgrade, as before compaction")
        XCTAssertEqual(Set(try joiner.config.hosts().map(\.label)), ["later-0", "later-1", "later-2"])
    }

    /// Snapshot numbers are never used twice, even after every snapshot of the device is gone.
    func testSnapshotNumbersAreNeverReused() throws {
        let a = try device("a")
        try a.addHost(label: "one", password: nil)
        try sync(a, policy: now)
        for name in try remote.list(prefix: "zones/config/a/") where name.contains("/snap-") { try remote.delete(name) }
        try a.addHost(label: "two", password: nil)
        try sync(a, policy: now)
        XCTAssertEqual(try remote.list(prefix: "zones/config/a/").filter { $0.hasSuffix(".snapshot") }, ["zones/config/a/snap-00000000000000000002.snapshot"])
    }

    /// A snapshot whose manifest never got written (a crash after its parts) is never read:
    /// a joiner reads the batches instead. The next snapshot takes a new number, and collection
    /// then removes the abandoned parts.
    func testASnapshotCutShortBeforeItsManifestIsIgnoredAndItsPartsCollected() throws {
        let a = try device("a")
        for round in 0..<3 {
            try a.addHost(label: "h\(round)", password: nil)
            try sync(a)
        }
        let losing = LosingManifests(inner: remote, failures: 1)
        var small = now
        small.partEnvelopes = 1
        let cut = try ZoneEngine(store: a.configZone, remote: losing, transportKey: transport, policy: small).run()
        XCTAssertNotNil(cut.compactionProblem)
        let parts = try remote.list(prefix: "zones/config/a/").filter { $0.hasSuffix(".chunk") }
        XCTAssertEqual(parts.count, 3, "one part per host, and no manifest")
        let b = try device("b")
        XCTAssertEqual(try ZoneEngine(store: b.configZone, remote: remote, transportKey: transport).run().snapshotsRead, 0)
        XCTAssertEqual(try b.config.hosts().count, 3)

        try a.addHost(label: "h3", password: nil)
        try sync(a, policy: small)
        let names = try remote.list(prefix: "zones/config/a/")
        XCTAssertEqual(names.filter { $0.hasSuffix(".snapshot") }, ["zones/config/a/snap-00000000000000000002.snapshot"])
        XCTAssertFalse(names.contains { $0.contains("snap-00000000000000000001") }, "the abandoned parts are collected: \(names)")
        let c = try device("c")
        try sync(c)
        try assertSame(c, as: try a.dump())
    }

    /// One device alone: a single immediate compaction writes the snapshot and collects the
    /// history it covers in the same run (the listing predates the snapshot, which still counts).
    func testALoneDeviceCompactsInOneRun() throws {
        let a = try device("a")
        for round in 0..<5 {
            try a.addHost(label: "h\(round)", password: nil)
            try sync(a)
        }
        let report = try sync(a, policy: now)[0]
        XCTAssertEqual(report.snapshotsWritten, 1)
        XCTAssertEqual(report.collectedObjects, 4)
        XCTAssertEqual(try batches("config")["a"], [5])
    }

    /// The remote refusing deletions in the middle of compaction: the run still succeeds (what
    /// was fetched and sent stands), says why compaction stopped, and nothing is lost — a later
    /// run collects, and a joiner converges.
    func testCompactionCutShortIsSaidAndLosesNothing() throws {
        let a = try device("a")
        for round in 0..<5 {
            try a.addHost(label: "h\(round)", password: "pw\(round)")
            try sync(a)
        }
        try a.addHost(label: "last", password: nil)
        let refusing = RefusingDeletes(inner: remote)
        let report = try ZoneEngine(store: a.configZone, remote: refusing, transportKey: transport, policy: now).run()
        XCTAssertEqual(report.sentChanges, 1)
        XCTAssertEqual(report.snapshotsWritten, 1)
        XCTAssertNotNil(report.compactionProblem)
        XCTAssertEqual(try batches("config")["a"]?.count, 6, "nothing was collected")
        try sync(a, policy: now)
        XCTAssertEqual(try batches("config")["a"], [6])
        let b = try device("b")
        try sync(b)
        try assertSame(b, as: try a.dump())
    }

    /// The remote serves garbage for a batch until a device quarantines it whole (its cursor
    /// moves on); then the writer's compaction collects it, and the real bytes never come back.
    /// The device takes what it held from the snapshot that covers it, and the quarantine entry
    /// goes. (The convergence test's hostile participant rewrites honest batches for a while.)
    func testABatchQuarantinedWholeAndThenCollectedComesFromTheSnapshot() throws {
        let a = try device("a"), b = try device("b")
        for round in 0..<3 {
            try a.addHost(label: "host-\(round)", password: nil)
            try sync(a)
        }
        let name = Batch.objectName(zone: "config", device: "a", sequence: 2)
        try remote.delete(name)
        _ = try remote.createOnly(name, bytes: [1, 2, 3])
        for _ in 0..<SyncTables.attemptsBeforeQuarantine { try sync(b) }
        XCTAssertEqual(try b.config.quarantined().map(\.recordName), [name])
        try sync(b, policy: now)
        try sync(a, policy: now)
        XCTAssertEqual(try batches("config")["a"], [3], "collected: a's snapshot covers it and b's cursor is past it")

        XCTAssertEqual(try sync(b)[0].snapshotsRead, 1)
        XCTAssertEqual(try b.config.quarantined(), [])
        try assertSame(b, as: try a.dump())
        XCTAssertEqual(try sync(b)[0].snapshotsRead, 0, "once is enough")
    }
}

/// A remote whose next `failures` snapshot manifests are not written (as if the device
/// crashed after its parts): the parts stay behind without a manifest.
private final class LosingManifests: Remote {
    let inner: DirectoryRemote
    let failures: Mutex<Int>
    init(inner: DirectoryRemote, failures: Int) {
        self.inner = inner
        self.failures = Mutex(failures)
    }
    var location: String { inner.location }
    func list(prefix: String) throws -> [String] { try inner.list(prefix: prefix) }
    func get(_ name: String) throws -> [UInt8]? { try inner.get(name) }
    func delete(_ name: String) throws { try inner.delete(name) }
    func createOnly(_ name: String, bytes: [UInt8]) throws -> CreateOutcome {
        if name.hasSuffix(".snapshot"), failures.withLock({ count in defer { count -= 1 }; return count > 0 }) {
            throw ReplicationError(.unreachable, "the remote went away")
        }
        return try inner.createOnly(name, bytes: bytes)
    }
}

/// A remote that creates and reads but cannot delete (a bucket policy without delete rights).
private final class RefusingDeletes: Remote {
    let inner: DirectoryRemote
    init(inner: DirectoryRemote) { self.inner = inner }
    var location: String { inner.location }
    func list(prefix: String) throws -> [String] { try inner.list(prefix: prefix) }
    func get(_ name: String) throws -> [UInt8]? { try inner.get(name) }
    func createOnly(_ name: String, bytes: [UInt8]) throws -> CreateOutcome { try inner.createOnly(name, bytes: bytes) }
    func delete(_ name: String) throws { throw ReplicationError(.io, "Access denied deleting \(name).") }
}
