import Foundation
import Replication
import Sodium
import Synchronization
import XCTest
@testable import ConfigTrack
@testable import SecretTrack

/// Snapshots and garbage collection with real stores and a real directory remote: batches go
/// only once a snapshot covers them and every live device has read them; a device joining later,
/// or one treated as retired while it was away, converges from the snapshot with nothing lost.
final class CompactionTests: XCTestCase {
    private var directory = ""
    private var remote: DirectoryRemote!
    private let transport = try! SecretBytes.random(count: 32)
    private let vaultKey = try! SecretBytes.random(count: 32)
    private var now: CompactionPolicy {
        var policy = CompactionPolicy()
        policy.immediate = true
        return policy
    }

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "compaction-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/remote", withIntermediateDirectories: true)
        remote = DirectoryRemote(root: directory + "/remote")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func device(_ name: String) throws -> SimulatedDevice {
        try SimulatedDevice(name: name, directory: directory, vaultKey: vaultKey, skewMilliseconds: 0)
    }

    @discardableResult
    private func sync(_ device: SimulatedDevice, policy: CompactionPolicy = CompactionPolicy()) throws -> [ZoneSyncReport] {
        try [device.configZone, device.secretZone].map { try ZoneEngine(store: $0, remote: remote, transportKey: transport, policy: policy).run() }
    }

    /// Equal replicas, said without printing them.
    private func assertSame(_ device: SimulatedDevice, as reference: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let dump = try device.dump()
        XCTAssertTrue(dump == reference, "\(device.name) differs in \(Set(dump).symmetricDifference(reference).count) lines", file: file, line: line)
    }

    private func batches(_ zone: String) throws -> [String: [UInt64]] {
        var result: [String: [UInt64]] = [:]
        for name in try remote.list(prefix: "zones/\(zone)/") {
            let parts = name.split(separator: "/")
            guard parts.count == 4, parts[3].hasSuffix(".batch"), let sequence = UInt64(parts[3].dropLast(6)) else { continue }
            result[String(parts[2]), default: []].append(sequence)
        }
        return result.mapValues { $0.sorted() }
    }

    /// Three devices each publish a dozen batches per zone (hosts with passwords, edits, a
    /// deletion), then compact. Afterwards each device keeps only its newest batch; a snapshot
    /// covers the rest; and a fourth device joining later reads the snapshot, not the history,
    /// and ends with exactly the same state — the deleted password included as deleted.
    func testBatchesEveryDeviceHasPassedAreCollectedAndALateJoinerConverges() throws {
        let devices = try ["a", "b", "c"].map(device)
        var deletedHost: ConfigTrack.Host?
        for round in 0..<12 {
            for device in devices {
                try device.addHost(label: "\(device.name)-\(round)", password: "pw-\(device.name)-\(round)")
                if round == 5, device.name == "b" {
                    let host = try XCTUnwrap(try device.config.hosts().first { $0.label == "a-1" })
                    try device.removeHost(host)
                    deletedHost = host
                }
                try sync(device)
            }
        }
        let before = try batches("config")
        XCTAssertEqual(before.values.map(\.count).reduce(0, +), 36, "one batch per device and round")
        for device in devices { try sync(device) }
        // Everyone has read everything; the last one to compact collects what all three passed.
        for device in devices { try sync(device, policy: now) }

        for zone in ["config", "secrets"] {
            let after = try batches(zone)
            XCTAssertEqual(after.keys.sorted(), ["a", "b", "c"])
            for (device, sequences) in after { XCTAssertEqual(sequences.count, 1, "\(zone): \(device) keeps only its newest batch, not \(sequences)") }
            let names = try remote.list(prefix: "zones/\(zone)/")
            XCTAssertTrue(names.contains { $0.hasSuffix(".snapshot") }, "\(zone) has a snapshot")
            XCTAssertEqual(names.filter { $0.hasSuffix(".cursors") }.count, 3, "\(zone): one published cursors object per device")
        }

        let d = try device("d")
        let joined = try sync(d)
        for report in joined {
            XCTAssertEqual(report.snapshotsRead, 1, "\(report.zone): the joiner starts from the snapshot")
            XCTAssertLessThanOrEqual(report.fetchedObjects, 1 + 3, "\(report.zone): the snapshot part and at most each device's newest batch")
        }
        let reference = try devices[0].dump()
        for device in devices.dropFirst() + [d] { try assertSame(device, as: reference) }
        XCTAssertEqual(try d.config.hosts().count, 35)
        let deleted = try XCTUnwrap(deletedHost)
        guard case .deleted = try d.secrets.state(of: SecretReference.hostPassword(deleted.id).key) else {
            return XCTFail("the joiner must hold the deletion, not the password")
        }
        let last = try XCTUnwrap(try d.config.hosts().first { $0.label == "c-11" })
        let password: SecretBytes = try d.secrets.read(SecretReference.hostPassword(last.id).key)
        XCTAssertEqual(password.withUnsafeBytes { Array($0) }, Array("pw-c-11".utf8))
    }

    /// A device stays away past the retirement period with an edit it never sent; the others
    /// collect history it had not read. When it comes back it finds its next batches gone,
    /// starts again from the snapshot, keeps and sends its edit, and everyone converges.
    func testARetiredDeviceComesBackFromASnapshotWithoutLosingItsEdits() throws {
        let devices = try ["a", "b", "c"].map(device)
        for device in devices { try sync(device) }
        let c = devices[2]
        try c.addHost(label: "made-offline", password: "offline-secret")
        for round in 0..<20 {
            for device in devices.prefix(2) {
                try device.addHost(label: "\(device.name)-\(round)", password: "pw-\(round)")
                try sync(device)
            }
        }
        var retiring = now
        retiring.retireAfter = 0
        for device in devices.prefix(2) { try sync(device, policy: retiring) }
        for (device, sequences) in try batches("config") where device != "c" {
            XCTAssertEqual(sequences.count, 1, "\(device)'s batches c never read are collected: c counts as retired")
        }

        let back = try sync(c)
        XCTAssertEqual(back.map(\.snapshotsRead), [1, 1], "c starts again from the snapshot")
        for device in devices.prefix(2) { try sync(device) }
        let reference = try devices[0].dump()
        for device in devices.dropFirst() { try assertSame(device, as: reference) }
        XCTAssertTrue(try devices[0].config.hosts().contains { $0.label == "made-offline" }, "the edit c made while away arrives")
        XCTAssertEqual(try devices[0].config.hosts().count, 41)
    }

    /// A device restored from an old backup (its state from before it published most of its
    /// batches, which were then collected) must not reuse a sequence others have passed: it
    /// catches up from the snapshot and publishes past its newest batch on the remote.
    func testADeviceRestoredFromAnOldBackupPublishesPastItsCollectedBatches() throws {
        let a = try device("a"), b = try device("b")
        try a.addHost(label: "first", password: nil)
        try sync(a)
        let backup = directory + "/backup"
        try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: true)
        for file in ["a-config.sqlite", "a-secrets.sqlite"] { try FileManager.default.copyItem(atPath: directory + "/" + file, toPath: backup + "/" + file) }
        for round in 0..<6 {
            try a.addHost(label: "later-\(round)", password: nil)
            try sync(a)
        }
        try sync(b)
        try sync(a, policy: now)
        try sync(b, policy: now)
        XCTAssertEqual(try batches("config")["a"], [7])

        for file in ["a-config.sqlite", "a-secrets.sqlite"] {
            try FileManager.default.removeItem(atPath: directory + "/" + file)
            try FileManager.default.copyItem(atPath: backup + "/" + file, toPath: directory + "/" + file)
        }
        let restored = try SimulatedDevice(reopening: "a", directory: directory)
        try restored.addHost(label: "after-restore", password: nil)
        try sync(restored)
        XCTAssertEqual(try batches("config")["a"]?.max(), 8, "the next batch goes after the newest one on the remote")
        try sync(b)
        XCTAssertTrue(try b.config.hosts().contains { $0.label == "after-restore" })
        try assertSame(restored, as: try b.dump())
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
