import Foundation
import Replication
import Sodium
import XCTest
@testable import ConfigTrack
@testable import SecretTrack

/// The convergence property: 3–5 devices with clocks days apart make random edits of hosts and
/// passwords (including setting after deleting) and sync random zones through a remote that
/// delays, drops and duplicates objects. After everyone syncs to quiescence, every replica is
/// identical, no deleted incarnation is back, and no acknowledged write was lost. Some syncs
/// compact at once (snapshot, published cursors, collection), some treating every other device
/// as retired; a device joining after the last compaction converges to the same state.
///
/// A hostile participant (`HostileDevice`) with a stolen transport key writes into the remote
/// all along: numbers out of range, replays, made-up devices, garbage conflict copies, invalid
/// records, honest objects rewritten for a while. The honest devices still converge, and none
/// of its records reaches a replica.
///
/// `CREDVAULT_CONVERGENCE_SEEDS` sets how many fixed seeded runs (default 60), and a tenth as many
/// fresh seeds run beside them, new every time and printed first; a failure names its seed, and
/// `CREDVAULT_CONVERGENCE_SEED=N` replays just that one.
final class ConvergenceTests: XCTestCase {
    func testReplicasConvergeUnderAnyDelivery() throws {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["CREDVAULT_CONVERGENCE_SEEDS"].flatMap(Int.init) ?? 60
        // The fixed seeds 1…N replay the same runs everywhere; a tenth as many fresh ones, new
        // every run and printed first, explore what the fixed ones never reach.
        let fresh = UInt64(Date().timeIntervalSince1970 * 1_000) << 8
        let seeds: [UInt64] = environment["CREDVAULT_CONVERGENCE_SEED"].flatMap(UInt64.init).map { [$0] }
            ?? Array(1...UInt64(count)) + (0..<UInt64(max(1, count / 10))).map { fresh + $0 }
        if seeds.count > 1 { print("convergence: fresh seeds \(fresh)…\(fresh + UInt64(max(1, count / 10)) - 1) (replay one with CREDVAULT_CONVERGENCE_SEED=N)") }
        var lateJoinsFromSnapshots = 0
        for seed in seeds {
            // A thrown error fails the run with its seed, so it can be replayed.
            do {
                lateJoinsFromSnapshots += try run(seed: seed)
            } catch {
                XCTFail("seed \(seed): \(error)")
            }
        }
        // The property holds with compaction in play: most late joiners started from a snapshot.
        if seeds.count >= 10 { XCTAssertGreaterThan(lateJoinsFromSnapshots, seeds.count / 2) }
        print("convergence: \(seeds.count) seeds (first \(seeds.first ?? 0)), \(randomPhaseSyncs) syncs in the random phases, none failed")
        if seeds.count >= 10 { XCTAssertGreaterThan(randomPhaseSyncs, seeds.count) }
        // And with the hostile participant heard: what it forged is in quarantine, not lost.
        if seeds.count >= 10 { XCTAssertGreaterThan(quarantinedOnLateJoiners, seeds.count) }
    }

    /// Syncs run (and not one thrown) in the random phases of all runs.
    private var randomPhaseSyncs = 0

    /// Entries the late joiners of all runs hold in quarantine.
    private var quarantinedOnLateJoiners = 0

    /// Returns how many snapshots the late joiner started from.
    private func run(seed: UInt64) throws -> Int {
        // tmpfs when there is one: every write is fsync'd, and thousands of runs must stay fast.
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        var template = Array((base as NSString).appendingPathComponent("convergence-XXXXXX").utf8CString)
        let directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/remote", withIntermediateDirectories: true)
        let reliable = DirectoryRemote(root: directory + "/remote")
        let flaky = FlakyRemote(inner: reliable, seed: seed)
        let transport = try SecretBytes.random(count: 32)
        let vaultKey = try SecretBytes.random(count: 32)
        let day: Int64 = 86_400_000
        let devices = try (0..<(3 + Int(flaky.next(3)))).map { index in
            try SimulatedDevice(name: "device-\(index)", directory: directory, vaultKey: vaultKey,
                                skewMilliseconds: Int64(flaky.next(7)) * day - 3 * day)
        }
        var deleted: Set<String> = []  // "reference#incarnation" deleted anywhere
        let hostile = HostileDevice(root: directory + "/remote", generator: flaky, transportKey: transport, honest: devices.map(\.name) + ["late"])

        for step in 0..<80 {
            if flaky.next(8) == 0 { try hostile.act() }
            let device = devices[Int(flaky.next(UInt64(devices.count)))]
            let hosts = try device.config.hosts()
            let host = hosts.isEmpty ? nil : hosts[Int(flaky.next(UInt64(hosts.count)))]
            do {
                switch flaky.next(9) {
                case 0, 1: try device.addHost(label: "h\(step)-\(device.name)", password: flaky.next(2) == 0 ? "pw\(step)" : nil)
                case 2: if let host { try device.editPort(host, port: 1 + Int(flaky.next(60_000))) }
                case 3: if let host { try device.setPassword(host, "pw\(step)") }
                case 4: if let host, let reference = host.passwordRef {
                    if case .present(let item) = try device.secrets.state(of: reference.key) { deleted.insert("\(reference.key)#\(item.incarnation)") }
                    try device.clearPassword(host)
                }
                case 5: if let host {
                    if case .present(let item) = try device.secrets.state(of: SecretReference.hostPassword(host.id).key) {
                        deleted.insert("\(SecretReference.hostPassword(host.id).key)#\(item.incarnation)")
                    }
                    try device.removeHost(host)
                }
                default:
                    let zone = flaky.next(2) == 0 ? device.configZone : device.secretZone
                    // The flaky remote delays, drops and duplicates but never fails a call: a sync
                    // that throws here is a defect, and fails the seed.
                    _ = try ZoneEngine(store: zone, remote: flaky, transportKey: transport, policy: Self.randomPolicy(flaky)).run()
                    randomPhaseSyncs += 1
                }
            } catch let error as ConfigError where error.code == .conflict || error.code == .alreadyExists {
                continue  // an edit racing a merged change: refused, as designed
            }
        }

        // Quiescence: full delivery, everyone syncs both zones until nothing moves; the last
        // round compacts, so the late joiner finds collected history. The remote serves again
        // what it served before (what was collected meanwhile stays gone).
        try hostile.restore(all: true)
        for round in 0..<4 {
            var policy = CompactionPolicy()
            policy.immediate = round == 3
            for device in devices {
                for zone in [device.configZone, device.secretZone] {
                    _ = try ZoneEngine(store: zone, remote: reliable, transportKey: transport, policy: policy).run()
                }
            }
        }
        let late = try SimulatedDevice(name: "late", directory: directory, vaultKey: vaultKey, skewMilliseconds: 0)
        let lateReports = try [late.configZone, late.secretZone].map { try ZoneEngine(store: $0, remote: reliable, transportKey: transport).run() }

        let reference = try devices[0].dump()
        XCTAssertFalse(reference.isEmpty, "seed \(seed): the run replicated nothing")
        for device in devices.dropFirst() + [late] {
            let dump = try device.dump()
            XCTAssertTrue(dump == reference, "seed \(seed): \(device.name) differs from device-0 in \(Set(dump).symmetricDifference(reference).count) lines; only there: \(Set(dump).subtracting(reference).sorted()), only on device-0: \(Set(reference).subtracting(dump).sorted())")
        }
        for device in devices + [late] {
            XCTAssertEqual(try device.config.counts().pendingChanges + device.secrets.counts().pendingChanges, 0, "seed \(seed): journal not drained")
            for item in try device.secrets.items() where deleted.contains("\(item.reference)#\(item.incarnation)") {
                XCTFail("seed \(seed): \(item.reference) incarnation \(item.incarnation) came back on \(device.name)")
            }
        }
        try assertNoAcknowledgedWriteLost(devices, seed: seed)
        for device in devices + [late] {
            XCTAssertEqual(try hostile.forgeries(in: device), [], "seed \(seed): a forged record reached \(device.name)")
        }
        quarantinedOnLateJoiners += try late.config.counts().quarantined + late.secrets.counts().quarantined
        return lateReports.map(\.snapshotsRead).reduce(0, +)
    }

    /// Mostly the defaults (nothing compacts in so short a run); one sync in four compacts at
    /// once, and half of those treat every other device as retired.
    private static func randomPolicy(_ flaky: FlakyRemote) -> CompactionPolicy {
        var policy = CompactionPolicy()
        guard flaky.next(4) == 0 else { return policy }
        policy.immediate = true
        if flaky.next(2) == 0 { policy.retireAfter = 0 }
        return policy
    }

    /// Every acknowledged envelope is in the final state, or lost to one that wins over it.
    private func assertNoAcknowledgedWriteLost(_ devices: [SimulatedDevice], seed: UInt64) throws {
        let final = devices[0]
        for device in devices {
            for sent in device.configZone.acknowledged.withLock({ $0 }) {
                let now = try currentConfigEnvelope(final.config, sent)
                XCTAssertFalse(now.map { Merge.wins(sent, over: $0) } ?? true, "seed \(seed): acknowledged \(sent.recordName) was lost")
            }
            for sent in device.secretZone.acknowledged.withLock({ $0 }) {
                let now = try currentSecretState(final.secrets, sent.recordName)
                XCTAssertFalse(now.map { Merge.wins(sent, over: $0) } ?? true, "seed \(seed): acknowledged \(sent.recordName) was lost")
            }
        }
    }

    private func currentConfigEnvelope(_ store: ConfigStore, _ sent: Envelope) throws -> Envelope? {
        guard let id = ConfigZone.id(of: sent.recordName, kind: sent.kind) else { return nil }
        if let host = try store.host(id: id), let version = host.version {
            return Envelope(recordName: sent.recordName, kind: sent.kind, formatVersion: 1, version: version, deleted: false, incarnation: 0,
                            payload: version == sent.version ? sent.payload : [0xff])
        }
        return try store.read("tombstone") { db in
            try db.queryFirst("SELECT version_clock, version_device FROM config_tombstones WHERE record_name = ?", [sent.recordName]) {
                Envelope(recordName: sent.recordName, kind: sent.kind, formatVersion: 1, version: RecordVersion(clock: $0.uint64(0), device: $0.text(1) ?? ""),
                         deleted: true, incarnation: 0, payload: [])
            }
        }
    }

    private func currentSecretState(_ store: SecretStore, _ reference: String) throws -> Envelope? {
        switch try store.state(of: reference) {
        case .present(let item):
            let sealed = try store.read("body") { db in try store.state(db, reference).sealed } ?? []
            return SecretZone.envelope(item, sealed: sealed)
        case .deleted(let marker):
            return SecretZone.tombstone(reference, incarnation: marker.incarnation, version: marker.version)
        default:
            return nil
        }
    }
}
