import Foundation
import Replication
import SQLite
@testable import ConfigTrack
@testable import SecretTrack

/// The rule that nothing is lost silently (docs/concurrent-edits.md), for config fields: every
/// value a device wrote — sent or not — either holds at the end, was replaced by a write made
/// after seeing it, or is kept as a conflict on that device; and a device keeps nothing that the
/// write which beat it had seen.
extension ConvergenceRun {
    /// Checks every field group value each device wrote against the final replica `final`;
    /// returns how many conflicts the devices kept.
    func accountForEveryConfigWrite(_ devices: [VaultDevice], final: VaultDevice) throws -> Int {
        // Every value written, by record, group and version: the winners' contexts.
        var writes: [String: VaultDevice.FieldWrite] = [:]
        for device in devices { writes.merge(device.fieldWrites.withLock { $0 }) { old, _ in old } }
        let finalDB = try Connection(path: final.config.queue.path)
        var keptKeys: Set<String> = []
        for device in devices {
            keptKeys.formUnion(try device.config.conflicts().map { "\($0.recordName) \($0.group) \($0.keptVersion)" })
        }
        // A write is accounted for when the final value is it or had seen it, when it is kept, or
        // when a later write that had seen it (the same device's next edit, say) is accounted for.
        var accounted: [String: Bool] = [:]
        func isAccounted(_ write: VaultDevice.FieldWrite, final winner: FieldStamp) -> Bool {
            let key = "\(write.recordName) \(write.group) \(write.stamp.version)"
            if let known = accounted[key] { return known }
            let result = winner == write.stamp || winner.context.covers(write.stamp.version) || keptKeys.contains(key)
                || writes.values.contains { later in
                    later.recordName == write.recordName && later.group == write.group && later.stamp != write.stamp
                        && later.stamp.context.covers(write.stamp.version) && isAccounted(later, final: winner)
                }
            accounted[key] = result
            return result
        }
        for device in devices {
            let conflicts = try device.config.conflicts()
            for write in device.fieldWrites.withLock({ $0.values }) {
                guard let type = ConfigZone.kinds[String(write.recordName.prefix { $0 != "/" })], let id = ConfigZone.id(of: write.recordName, kind: type.kind),
                      let index = type.fieldGroups.firstIndex(where: { $0.name == write.group }) else { continue }
                // A removed record: its deletion beat every value (the deletion's own context is
                // not sent yet, so whether it saw them is not checked here).
                guard let now = try StoredRecord.read(finalDB, type, key: CanonicalUUID.text(id)) else { continue }
                let winner = now.stamps[index]
                guard isAccounted(write, final: winner) else {
                    throw ConvergenceFailure("\(device.name)'s \(write.group) of \(write.recordName) (\(write.stamp.version)) lost to \(winner.version) "
                                             + "without being seen, and was not kept as a conflict")
                }
            }
            // A conflict is kept only by the value's maker, and only against a winner that had
            // not seen it.
            if let foreign = conflicts.first(where: { $0.keptVersion.device != device.vault.deviceID }) {
                throw ConvergenceFailure("\(device.name) kept another device's \(foreign.group) of \(foreign.recordName) as its conflict")
            }
            for conflict in conflicts where !conflict.winnerDeleted {
                guard let winner = writes["\(conflict.recordName) \(conflict.group) \(conflict.winnerVersion)"]?.stamp else { continue }
                if winner.context.covers(conflict.keptVersion) {
                    throw ConvergenceFailure("\(device.name) kept its \(conflict.group) of \(conflict.recordName) as a conflict though the winner had seen it")
                }
            }
        }
        return keptKeys.count
    }

    /// The same rule for secret bodies: each body a device wrote holds, was replaced by one
    /// written after seeing it, or is kept (sealed) on that device. Returns how many are kept.
    func accountForEverySecretWrite(_ devices: [VaultDevice], final: VaultDevice) throws -> Int {
        var writes: [String: VaultDevice.SecretWrite] = [:]
        for device in devices { writes.merge(device.secretWrites.withLock { $0 }) { old, _ in old } }
        var kept: Set<String> = []
        for device in devices {
            let conflicts = try device.secrets.conflicts()
            if let foreign = conflicts.first(where: { $0.lost.version.device != device.vault.deviceID }) {
                throw ConvergenceFailure("\(device.name) kept another device's \(foreign.lost.reference) as its conflict")
            }
            kept.formUnion(conflicts.map { "\($0.lost.reference) \($0.lost.version)" })
        }
        let finalDB = try Connection(path: final.secrets.queue.path)
        var accounted: [String: Bool] = [:]
        func isAccounted(_ key: String, final winner: (version: RecordVersion, context: VersionContext)) -> Bool {
            if let known = accounted[key] { return known }
            guard let write = writes[key] else { return false }
            let result = winner.version == write.version || winner.context.covers(write.version) || kept.contains(key)
                || writes.contains { laterKey, later in
                    later.reference == write.reference && later.version != write.version && later.context.covers(write.version) && isAccounted(laterKey, final: winner)
                }
            accounted[key] = result
            return result
        }
        for (key, write) in writes {
            // A deletion of its incarnation beat it (whether the deleting device had seen it is
            // not checked here: a deletion's context does not travel yet).
            guard let (incarnation, version, context) = try finalDB.queryFirst(SecretStore.selectItem + " WHERE reference = ?", [write.reference], {
                (SecretStore.item($0).incarnation, SecretStore.item($0).version, SecretStore.itemContext($0))
            }), incarnation == write.incarnation else { continue }
            let winner = (version: version, context: context)
            guard isAccounted(key, final: winner) else {
                throw ConvergenceFailure("the body of \(write.reference) written at \(write.version) lost to \(winner.version) without being seen, and was not kept")
            }
        }
        return kept.count
    }
}
