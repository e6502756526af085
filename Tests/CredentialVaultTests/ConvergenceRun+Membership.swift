import Foundation
import Membership
import Replication
import SQLite
@testable import ConfigTrack
@testable import CredentialVault
@testable import SecretTrack
import struct Identifiers.UUID

/// A revoked device of a convergence run: it is never told, and goes on writing with the keys
/// and the roster it held — the objects it publishes past its cutoff must stay out of every
/// honest replica.
struct RevokedDevice {
    let device: VaultDevice
    /// What it seals and signs with: the roster from before its revocation.
    let seal: SignedSeal
    /// Its newest own version at its revocation: anything it stamps later is past its cutoff.
    let lastClock: UInt64
}

/// Membership moves in the random phase of a convergence run: rotations, devices joining by
/// approval, and revocations (the revoked device then keeps writing).
extension ConvergenceRun {
    func membershipMove(_ devices: inout [VaultDevice], _ revoked: inout [RevokedDevice], flaky: FlakyRemote, directory: String, remoteRoot: String,
                        hostile: HostileDevice, totals: inout ConvergenceTotals) throws {
        switch flaky.next(3) {
        case 0:
            let device = devices[Int(flaky.next(UInt64(devices.count)))]
            _ = try device.vault.rotateVaultKeys()
            totals.rotations += 1
        case 1 where devices.count < 6:
            let approver = devices[Int(flaky.next(UInt64(devices.count)))]
            devices.append(try VaultDevice.joiningByApproval(name: "approved-\(totals.approvals)", id: flaky.uuid(), directory: directory, remoteRoot: remoteRoot,
                                                           approver: approver))
            totals.approvals += 1
        case 2 where devices.count > 3:
            // Never device-0, whose replica the others are compared with. The victim's every
            // batch is on the remote as it wrote it (the hostile participant's rewrites put back)
            // and read by the revoker first.
            try hostile.restore(all: true)
            let victimIndex = 1 + Int(flaky.next(UInt64(devices.count - 1)))
            let victim = devices[victimIndex]
            var revoker = devices[Int(flaky.next(UInt64(devices.count)))]
            if revoker === victim { revoker = devices[0] }
            _ = try victim.sync([.config, .secrets], through: nil, policy: CompactionPolicy())
            _ = try revoker.sync([.config, .secrets], through: nil, policy: CompactionPolicy())
            // One time in two a race: the victim writes once more, another device takes that in,
            // and the revoker revokes without seeing it (a sync tool still bringing it there). The
            // taker then undoes what it took in at its next sync.
            var hidden: [(String, String)] = []
            if flaky.next(2) == 0, case .done = try victim.randomEdit(step: 10_000 + totals.revocations, random: flaky, keys: keys) {
                _ = try victim.sync([.config, .secrets], through: nil, policy: CompactionPolicy())
                if let taker = devices.first(where: { $0 !== victim && $0 !== revoker }) {
                    _ = try taker.sync([.config, .secrets], through: nil, policy: CompactionPolicy())
                }
                hidden = try Self.hideNewestBatches(of: victim.vault.deviceID, in: remoteRoot, directory: directory)
                totals.racedRevocations += 1
            }
            let seal = try victim.seal()
            let lastClock = try victim.newestOwnClock()
            _ = try revoker.vault.revokeDevice(victim.vault.deviceID) { key in
                try key.printable().withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: VaultDevice.recoveryKeyPath(directory))) }
            }
            for (path, held) in hidden { try FileManager.default.moveItem(atPath: held, toPath: path) }
            devices.remove(at: victimIndex)
            revoked.append(RevokedDevice(device: victim, seal: seal, lastClock: lastClock))
            totals.revocations += 1
        default:
            break
        }
    }

    /// Moves `device`'s newest batch of each zone out of the remote; returns where each went.
    static func hideNewestBatches(of device: String, in remoteRoot: String, directory: String) throws -> [(String, String)] {
        try ["config", "secrets"].compactMap { zone in
            let folder = "\(remoteRoot)/zones/\(zone)/\(device)"
            guard let newest = try? FileManager.default.contentsOfDirectory(atPath: folder).filter({ $0.hasSuffix(".batch") && !$0.contains("conflict") }).max() else {
                return nil
            }
            let held = "\(directory)/held-\(zone)-\(newest)"
            try FileManager.default.moveItem(atPath: "\(folder)/\(newest)", toPath: held)
            return ("\(folder)/\(newest)", held)
        }
    }

    /// A revoked device edits, then publishes both zones with what it held, through `remote`.
    func keepWriting(_ revoked: RevokedDevice, step: Int, flaky: FlakyRemote, remote: any Remote, totals: inout ConvergenceTotals) throws {
        if case .done = try revoked.device.randomEdit(step: step, random: flaky, keys: keys) { totals.revokedWrites += 1 }
        for store in [ConfigZone(store: revoked.device.config) as any ZoneStore, SecretZone(store: revoked.device.secrets)] {
            _ = try ZoneEngine(store: store, remote: remote, seal: revoked.seal).run()
        }
    }

    /// No honest replica holds a version a revoked device stamped after its revocation.
    func assertNothingPastCutoffSurvives(_ revoked: [RevokedDevice], in devices: [VaultDevice]) throws {
        for gone in revoked {
            let id = gone.device.vault.deviceID
            for device in devices {
                let late = try device.versions(by: id).filter { $0.clock > gone.lastClock }
                guard late.isEmpty else {
                    throw ConvergenceFailure("\(device.name) holds \(late.count) versions revoked \(gone.device.name) wrote after its revocation: \(late.prefix(3))")
                }
            }
        }
    }
}

extension VaultDevice {
    /// A new device that asks to join and is approved by `approver` (who sees the same code),
    /// then confirms with the code the approval gave.
    static func joiningByApproval(name: String, id: UUID, directory: String, remoteRoot: String, approver: VaultDevice) throws -> VaultDevice {
        let asked = try Vault.join(at: "\(directory)/\(name)", remote: .directory(remoteRoot), join: JoinCredentials(name: name),
                                   key: .passphrase(try SecretBytes(utf8: name)), kdf: .insecureForTesting(), backend: .sqlite, deviceID: CanonicalUUID.text(id))
        guard case .awaitingApproval(let code) = asked.outcome else { throw ConvergenceFailure("\(name) was not waiting for approval: \(asked.outcome)") }
        let approval = try approver.vault.approveJoin(code: code)
        guard case .joined = try asked.vault.setRemote(.directory(remoteRoot), join: JoinCredentials(confirmation: approval.confirmation)) else {
            throw ConvergenceFailure("\(name) did not join with the confirmation code")
        }
        return VaultDevice(name: name, vault: asked.vault, skewMilliseconds: 0)
    }

    /// The clock of both stores now: every version this device stamps from now on is newer
    /// (its own stamps still in the replica would miss those superseded here since).
    func newestOwnClock() throws -> UInt64 {
        try [config.queue.path, secrets.queue.path].map { path in
            try Connection(path: path).queryFirst("SELECT last FROM replication_clock WHERE id = 1") { $0.uint64(0) } ?? 0
        }.max() ?? 0
    }

    /// Every version stamped by `device` this replica holds: config field stamps, secret bodies
    /// and deletion markers.
    func versions(by device: String) throws -> [RecordVersion] {
        var found: [RecordVersion] = []
        let db = try Connection(path: config.queue.path)
        for type in ConfigZone.kinds.values {
            try StoredRecord.forEach(db, type) { _, stored in found += stored.stamps.map(\.version).filter { $0.device == device } }
        }
        let secretDB = try Connection(path: secrets.queue.path)
        for table in ["secret_items", "deletion_markers"] {
            found += try secretDB.query("SELECT version_clock FROM \(table) WHERE version_device = ?", [device]) { RecordVersion(clock: $0.uint64(0), device: device) }
        }
        return found
    }
}
