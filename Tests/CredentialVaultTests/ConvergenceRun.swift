import Foundation
import Replication
import Sodium
@testable import ConfigTrack
@testable import CredentialVault
@testable import SecretTrack

/// One seeded run of the convergence property (see `ConvergenceTests`). Every check that fails
/// throws a `ConvergenceFailure` saying what differs, so the test reports it with the seed.
struct ConvergenceRun {
    let seed: UInt64
    let keys: VaultDevice.KeyFiles

    func run(into totals: inout ConvergenceTotals) throws {
        // tmpfs when there is one: every write is fsync'd, and thousands of runs must stay fast.
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        var template = Array((base as NSString).appendingPathComponent("convergence-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw ConvergenceFailure("mkdtemp failed") }
        let directory = String(cString: made), remoteRoot = directory + "/remote"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: remoteRoot, withIntermediateDirectories: true)
        let reliable = DirectoryRemote(root: remoteRoot)
        let flaky = FlakyRemote(inner: reliable, seed: seed)
        let day: Int64 = 86_400_000
        var devices: [VaultDevice] = []
        for index in 0..<(3 + Int(flaky.next(3))) {
            let name = "device-\(index)", skew = Int64(flaky.next(7)) * day - 3 * day
            devices.append(index == 0 ? try .creatingRemote(name: name, id: flaky.uuid(), directory: directory, remoteRoot: remoteRoot, skewMilliseconds: skew)
                                      : try .joining(name: name, id: flaky.uuid(), directory: directory, remoteRoot: remoteRoot, skewMilliseconds: skew))
        }
        var deleted: Set<String> = []  // "reference#incarnation" deleted anywhere
        // A member of its own: joined as the others did, then never synced as an honest device.
        let mallory = try VaultDevice.joining(name: "mallory", id: flaky.uuid(), directory: directory, remoteRoot: remoteRoot, skewMilliseconds: 0)
        let hostile = HostileDevice(root: remoteRoot, generator: flaky, member: try mallory.seal(), honest: devices.map(\.vault.deviceID))

        var revoked: [RevokedDevice] = []
        for step in 0..<80 {
            if flaky.next(8) == 0 { try hostile.act() }
            if flaky.next(12) == 0 {
                try membershipMove(&devices, &revoked, flaky: flaky, directory: directory, remoteRoot: remoteRoot, hostile: hostile, totals: &totals)
                hostile.forget(revoked.map(\.device.vault.deviceID))
                continue
            }
            if let gone = revoked.last, flaky.next(4) == 0 {
                try keepWriting(gone, step: step, flaky: flaky, remote: flaky, totals: &totals)
                continue
            }
            let device = devices[Int(flaky.next(UInt64(devices.count)))]
            if flaky.next(3) == 0 {
                let zone: SyncZone = flaky.next(2) == 0 ? .config : .secrets
                try requireAvailable(try device.sync([zone], through: flaky, policy: Self.randomPolicy(flaky)), device, "random phase")
                totals.syncs += 1
                continue
            }
            switch try device.randomEdit(step: step, random: flaky, keys: keys) {
            case .done(let gone):
                deleted.formUnion(gone)
                try device.noteFieldWrites()
                totals.edits += 1
            case .refused(let code):
                totals.refusals["\(code)", default: 0] += 1
            }
        }

        // Quiescence: full delivery, everyone syncs both zones until nothing moves; the last
        // round compacts, so the late joiner finds collected history. The remote serves again
        // what it served before (what was collected meanwhile stays gone).
        try hostile.restore(all: true)
        for round in 0..<4 {
            var policy = CompactionPolicy()
            policy.immediate = round == 3
            for device in devices { try requireAvailable(try device.sync([.config, .secrets], through: nil, policy: policy), device, "quiescence") }
        }
        let late = try VaultDevice.joining(name: "late", id: flaky.uuid(), directory: directory, remoteRoot: remoteRoot, skewMilliseconds: 0)
        let joined = try late.sync([.config, .secrets], through: nil, policy: CompactionPolicy())
        try requireAvailable(joined, late, "late join")
        totals.lateJoinsFromSnapshots += joined.map(\.snapshotsRead).reduce(0, +)
        // The late device announced itself; everyone hears of it.
        for device in devices { try requireAvailable(try device.sync([.config], through: nil, policy: CompactionPolicy()), device, "after the late join") }

        if ProcessInfo.processInfo.environment["CREDVAULT_CONVERGENCE_DEBUG"] != nil {
            print("devices: \(devices.map { "\($0.name)=\($0.vault.deviceID)" }); revoked: \(revoked.map { "\($0.device.name)=\($0.device.vault.deviceID) last \($0.lastClock)" })")
        }
        let reference = try devices[0].dump()
        guard !reference.isEmpty else { throw ConvergenceFailure("the run replicated nothing") }
        for device in devices.dropFirst() + [late] {
            let dump = try device.dump()
            guard dump == reference else {
                throw ConvergenceFailure("\(device.name) differs from device-0; only there: \(Set(dump).subtracting(reference).sorted()), only on device-0: \(Set(reference).subtracting(dump).sorted())")
            }
        }
        for device in devices + [late] {
            let pending = try device.config.counts().pendingChanges + device.secrets.counts().pendingChanges
            guard pending == 0 else {
                let names = try ConfigZone(store: device.config).pendingChanges(limit: 5).map { "\($0.recordName) \($0.version)" }
                throw ConvergenceFailure("\(device.name)'s journal is not drained (\(pending) changes: \(names))")
            }
            for item in try device.secrets.items() where deleted.contains("\(item.reference)#\(item.incarnation)") {
                throw ConvergenceFailure("\(item.reference) incarnation \(item.incarnation) came back on \(device.name)")
            }
            let forged = try hostile.forgeries(config: device.config, secrets: device.secrets)
            guard forged.isEmpty else { throw ConvergenceFailure("forged records reached \(device.name): \(forged)") }
        }
        try assertNothingPastCutoffSurvives(revoked, in: devices + [late])
        try assertNoAcknowledgedWriteLost(devices, final: devices[0])
        totals.configConflicts += try accountForEveryConfigWrite(devices, final: devices[0])
        totals.secretConflicts += try accountForEverySecretWrite(devices, final: devices[0])
        for line in reference { totals.finalLines[String(line.prefix { $0 != " " }), default: 0] += 1 }
        totals.quarantinedOnLateJoiners += try late.config.counts().quarantined + late.secrets.counts().quarantined
        totals.undos += (devices + [late]).map { $0.undos.withLock { $0 } }.reduce(0, +)
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

    /// The remotes here never fail a call: a zone that ends other than `available` is a defect.
    private func requireAvailable(_ outcomes: [ZoneOutcome], _ device: VaultDevice, _ phase: String) throws {
        for outcome in outcomes where outcome.state != .available {
            throw ConvergenceFailure("\(phase): \(device.name)'s \(outcome.zone) sync ended \(outcome.state): \(outcome.reason ?? "")")
        }
    }

    /// Every acknowledged secret envelope is in the final state, or lost to one that wins over it.
    /// (Config writes are held to the stronger rule of `accountForEveryConfigWrite`.)
    private func assertNoAcknowledgedWriteLost(_ devices: [VaultDevice], final: VaultDevice) throws {
        for device in devices {
            // A removal is its deletion's bookkeeping: the tombstone sent with it is checked.
            for sent in device.acknowledged[.secrets]!.envelopes.withLock({ $0 }) where !sent.isRemoval {
                let now = try currentSecretState(final.secrets, sent.recordName)
                if now.map({ Merge.wins(sent, over: $0) }) ?? true { throw ConvergenceFailure("\(device.name)'s acknowledged \(sent.recordName) was lost") }
            }
        }
    }

    private func currentSecretState(_ store: SecretStore, _ reference: String) throws -> Envelope? {
        switch try store.state(of: reference) {
        case .present(let item):
            let (sealed, context) = try store.read("body") { db in (try store.state(db, reference).sealed ?? [], try SecretStore.heldContext(db, reference)) }
            return SecretZone.envelope(item, sealed: sealed, context: context)
        case .deleted(let marker):
            return SecretZone.tombstone(reference, incarnation: marker.incarnation, version: marker.version)
        default:
            return nil
        }
    }
}

/// A convergence check that failed, in words.
struct ConvergenceFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What all the seeds of a convergence test did, for its assertions and closing line.
struct ConvergenceTotals {
    var syncs = 0
    var edits = 0
    var refusals: [String: Int] = [:]
    var lateJoinsFromSnapshots = 0
    var quarantinedOnLateJoiners = 0
    /// Config field values kept as conflicts on the devices that wrote them.
    var configConflicts = 0
    /// Secret bodies kept as conflicts on the devices that wrote them.
    var secretConflicts = 0
    /// Lines of the final replicas per kind (`host`, `group`, …, `tombstone`, `item`, `deleted`).
    var finalLines: [String: Int] = [:]
    /// Membership moves: rotations, devices joined by approval, revocations, and edits the
    /// revoked devices went on publishing.
    var rotations = 0
    var approvals = 0
    var revocations = 0
    /// Revocations that raced the revoked device's last batch: another device had taken it in.
    var racedRevocations = 0
    var undos = 0
    var revokedWrites = 0

    mutating func add(_ other: ConvergenceTotals) {
        syncs += other.syncs
        edits += other.edits
        refusals.merge(other.refusals, uniquingKeysWith: +)
        lateJoinsFromSnapshots += other.lateJoinsFromSnapshots
        quarantinedOnLateJoiners += other.quarantinedOnLateJoiners
        configConflicts += other.configConflicts
        secretConflicts += other.secretConflicts
        finalLines.merge(other.finalLines, uniquingKeysWith: +)
        rotations += other.rotations
        approvals += other.approvals
        revocations += other.revocations
        racedRevocations += other.racedRevocations
        undos += other.undos
        revokedWrites += other.revokedWrites
    }

    var summary: String {
        let kinds = finalLines.keys.sorted().map { "\($0) \(finalLines[$0]!)" }.joined(separator: ", ")
        return "\(edits) edits taken, refusals \(refusals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); "
            + "\(syncs) syncs in the random phases, none failed; \(configConflicts) config values and \(secretConflicts) secret bodies kept as conflicts; "
            + "\(rotations) rotations, \(approvals) devices joined by approval, \(revocations) revoked (\(racedRevocations) racing a batch another device had taken in, undone in \(undos) zones of the devices that took it in; the revoked then published \(revokedWrites) edits); final records: \(kinds)"
    }
}
