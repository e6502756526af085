import Foundation
import Replication
import Sodium
import XCTest

/// A revocation racing a revoked writer's last batches, at the zone engine: the device that took
/// in a batch past the cutoff says so and writes no snapshot, and no device uses as a base a
/// snapshot whose cursor for the revoked writer passes its cutoff.
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

    func testADeviceThatTookInABatchPastTheCutoffSaysSoAndWritesNoSnapshot() throws {
        let r = try device("r"), b = try device("b")
        for round in 0..<3 {
            try r.addHost(label: "r-\(round)", password: nil)
            _ = try run(r, revoked: [:])
        }
        _ = try run(b, revoked: [:])
        XCTAssertEqual(try b.config.hosts().count, 3)
        // The revoker had read r up to its second batch.
        let raced = try run(b, revoked: ["r": 2], policy: now)
        XCTAssertEqual(raced.appliedPastCutoff, ["r": 2])
        XCTAssertEqual(raced.snapshotsWritten, 0, "its state holds what no other device applies")
        XCTAssertFalse(try remote.list(prefix: "zones/config/").contains { $0.hasSuffix(".snapshot") })
        // Objects quarantined whole move the cursor too, yet bring nothing in: no race.
        let c = try device("c")
        try remote.delete(Batch.objectName(zone: "config", device: "r", sequence: 3))
        _ = try remote.createOnly(Batch.objectName(zone: "config", device: "r", sequence: 3), bytes: Array(repeating: 7, count: 200))
        for _ in 0..<SyncTables.attemptsBeforeQuarantine { _ = try run(c, revoked: [:]) }
        XCTAssertEqual(try c.configZone.syncState().cursors["r"], 3, "past the object quarantined whole")
        XCTAssertEqual(try run(c, revoked: ["r": 2]).appliedPastCutoff, [:])
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
