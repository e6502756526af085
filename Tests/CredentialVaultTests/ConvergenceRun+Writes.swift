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
        // A removal made after seeing a value ended it knowingly, whichever deletion stands.
        let removals = devices.flatMap { $0.removals.withLock { $0.filter { $0.key.hasPrefix("config ") }.values } }
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
            let result = winner.version == write.stamp.version || winner.context.covers(write.stamp.version) || keptKeys.contains(key)
                || removals.contains { $0.recordName == write.recordName && $0.context.covers(write.stamp.version) }
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
                // A removed record: its deletion beat every value, and its removal says what the
                // deleting device had seen.
                let winner: FieldStamp
                if let now = try StoredRecord.read(finalDB, type, key: CanonicalUUID.text(id)) {
                    winner = now.stamps[index]
                } else {
                    guard let tombstone = try ConfigZone(store: final.config).tombstone(finalDB, recordName: write.recordName, kind: type.kind) else {
                        throw ConvergenceFailure("\(write.recordName) is neither live nor removed on \(final.name)")
                    }
                    guard let removal = try RemovalLog.context(finalDB, recordName: write.recordName, incarnation: tombstone.incarnation,
                                                               version: tombstone.version) else {
                        throw ConvergenceFailure("the removal of \(write.recordName) did not reach \(final.name)")
                    }
                    winner = FieldStamp(version: tombstone.version, context: removal)
                }
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
            let deviceDB = try Connection(path: device.config.queue.path)
            for conflict in conflicts {
                let winner: VersionContext? = conflict.winnerDeleted
                    ? try deviceDB.queryFirst("SELECT context FROM replication_removals WHERE record_name = ? AND version_clock = ? AND version_device = ?",
                                              [conflict.recordName, conflict.winnerVersion.clock, conflict.winnerVersion.device]) { row in
                        var reader = ByteReader(row.blob(0) ?? [])
                        return try VersionContext.decode(from: &reader)
                    }
                    : writes["\(conflict.recordName) \(conflict.group) \(conflict.winnerVersion)"]?.stamp.context
                if let winner, winner.covers(conflict.keptVersion) {
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
        let removals = devices.flatMap { $0.removals.withLock { $0.filter { $0.key.hasPrefix("secrets ") }.values } }
        var accounted: [String: Bool] = [:]
        func isAccounted(_ key: String, final winner: (version: RecordVersion, context: VersionContext)) -> Bool {
            if let known = accounted[key] { return known }
            guard let write = writes[key] else { return false }
            let result = winner.version == write.version || winner.context.covers(write.version) || kept.contains(key)
                || removals.contains { $0.recordName == write.reference && $0.context.covers(write.version) }
                || writes.contains { laterKey, later in
                    later.reference == write.reference && later.version != write.version && later.context.covers(write.version) && isAccounted(laterKey, final: winner)
                }
            accounted[key] = result
            return result
        }
        for (key, write) in writes {
            // What came after it: the body that stands (a body written after a deletion starts
            // from that deletion's context) and the deletions of its incarnation or later ones
            // (a snapshot carries only the newest marker of a reference) with what they had seen.
            let live = try finalDB.queryFirst(SecretStore.selectItem + " WHERE reference = ?", [write.reference]) {
                (SecretStore.item($0).incarnation, SecretStore.item($0).version, SecretStore.itemContext($0))
            }
            var seen: [VersionContext] = []
            var standing = RecordVersion(clock: 0, device: "")
            if let (incarnation, version, context) = live, incarnation >= write.incarnation {
                seen.append(context)
                if incarnation == write.incarnation { standing = version }
            }
            let deletions = try finalDB.query("SELECT incarnation, version_clock, version_device FROM deletion_markers WHERE reference = ? AND incarnation >= ?",
                                              [write.reference, write.incarnation]) { ($0.int64(0), RecordVersion(clock: $0.uint64(1), device: $0.text(2) ?? "")) }
            for (incarnation, deletion) in deletions {
                if let removal = try RemovalLog.context(finalDB, recordName: write.reference, incarnation: incarnation, version: deletion) { seen.append(removal) }
            }
            guard !seen.isEmpty else {
                throw ConvergenceFailure("the body of \(write.reference) written at \(write.version) is gone from \(final.name) with no removal")
            }
            let winner = (version: standing, context: seen.reduce(VersionContext()) { $0.joined(with: $1) })
            guard isAccounted(key, final: winner) else {
                throw ConvergenceFailure("the body of \(write.reference) written at \(write.version) lost to \(winner.version.clock == 0 ? "a deletion" : "\(winner.version)") without being seen, and was not kept")
            }
        }
        return kept.count
    }
}
