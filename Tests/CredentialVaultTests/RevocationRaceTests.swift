import Foundation
import Replication
import Sodium
import XCTest

/// A revocation racing a revoked writer's last batches, at the zone engine: the device that took
/// in a batch past the cutoff rebuilds the zone from the remote, keeping its own edits, and no
/// device uses as a base a snapshot whose cursor for the revoked writer passes its cutoff.
final class RevocationRaceTests: CompactionTestCase {
    /// Format 1's seal with a roster's cutoffs: the engine's rules about cutoffs, without the
    /// signatures (`SignedSeal` refuses the objects themselves; `DeviceRevocationTests`).
    private struct CutoffSeal: ObjectSeal {
        let inner: TransportKeySeal
        let revoked: [String: UInt64]

        func seal(_ plain: [UInt8], name: String, purpose: SealPurpose, context: [UInt8]) throws -> [UInt8] {
            try inner.seal(plain, name: name, purpose: purpose, context: context)
        }

        func open(_ bytes: [UInt8], name: String, writer: String, purpose: SealPurpose, context: [UInt8]) throws -> [UInt8] {
            try inner.open(bytes, name: name, writer: writer, purpose: purpose, context: context)
        }

        func cutoffs(zone: String) -> [String: UInt64] { revoked }
    }

    private func run(_ device: SimulatedDevice, revoked: [String: UInt64], policy: CompactionPolicy = CompactionPolicy()) throws -> ZoneSyncReport {
        try ZoneEngine(store: device.configZone, remote: remote, seal: CutoffSeal(inner: TransportKeySeal(key: transport), revoked: revoked), policy: policy).run()
    }

    func testADeviceThatTookInABatchPastTheCutoffRebuildsTheZone() throws {
        let r = try device("r"), b = try device("b")
        for round in 0..<3 {
            try r.addHost(label: "r-\(round)", password: nil)
            _ = try run(r, revoked: [:])
        }
        try b.addHost(label: "b-sent", password: nil)
        _ = try run(b, revoked: [:])
        XCTAssertEqual(try b.config.hosts().count, 4)
        try b.addHost(label: "b-unsent", password: nil)
        // The revoker had read r up to its second batch; the remote (as `SignedSeal` does)
        // no longer gives r's third.
        try remote.delete(Batch.objectName(zone: "config", device: "r", sequence: 3))
        let rebuilt = try run(b, revoked: ["r": 2], policy: now)
        XCTAssertEqual(rebuilt.rebuiltAfter, ["r"])
        XCTAssertEqual(Set(try b.config.hosts().map(\.label)), ["r-0", "r-1", "b-sent", "b-unsent"], "r's third batch gone, b's own sent and unsent edits kept")
        XCTAssertEqual(rebuilt.snapshotsWritten, 1, "its own batches read back in the run, it compacts like any device")
        XCTAssertEqual(try b.configZone.syncState().cursors["r"], 2)
        XCTAssertEqual(try run(b, revoked: ["r": 2], policy: now).rebuiltAfter, [], "rebuilt once")
        // A joiner from that snapshot holds the same.
        let j = try device("j")
        _ = try run(j, revoked: ["r": 2])
        XCTAssertEqual(Set(try j.config.hosts().map(\.label)), ["r-0", "r-1", "b-sent", "b-unsent"])
    }

    func testObjectsQuarantinedWholeStartNoRebuild() throws {
        let r = try device("r"), c = try device("c")
        for round in 0..<3 {
            try r.addHost(label: "r-\(round)", password: nil)
            _ = try run(r, revoked: [:])
        }
        try remote.delete(Batch.objectName(zone: "config", device: "r", sequence: 3))
        _ = try remote.createOnly(Batch.objectName(zone: "config", device: "r", sequence: 3), bytes: Array(repeating: 7, count: 200))
        for _ in 0..<SyncTables.attemptsBeforeQuarantine { _ = try run(c, revoked: [:]) }
        XCTAssertEqual(try c.configZone.syncState().cursors["r"], 3, "past the object quarantined whole")
        XCTAssertEqual(try run(c, revoked: ["r": 2]).rebuiltAfter, [], "the cursor passed it, yet nothing of it was taken in")
    }

    func testASnapshotPastACutoffIsNoBase() throws {
        let r = try device("r"), b = try device("b")
        for round in 0..<20 {
            try r.addHost(label: "r-\(round)", password: nil)
            _ = try run(r, revoked: [:])
        }
        // b read all of r and wrote a snapshot before the revocation with cutoff 10.
        XCTAssertEqual(try run(b, revoked: [:], policy: now).snapshotsWritten, 1)
        let joiner = try device("j")
        let joined = try run(joiner, revoked: ["r": 10])
        XCTAssertEqual(joined.snapshotsRead, 0, "the snapshot covers r past its cutoff")
        let other = try device("k")
        XCTAssertEqual(try run(other, revoked: [:]).snapshotsRead, 1, "without the revocation it is the base")
    }
}
