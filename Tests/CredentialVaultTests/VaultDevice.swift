import Foundation
import Membership
import Replication
import Sodium
import SQLite
import Synchronization
@testable import ConfigTrack
@testable import CredentialVault
@testable import SecretTrack
import struct Identifiers.UUID

/// One device of a convergence run, driven through `Vault` as credctl drives it: the first one
/// creates the remote with `setRemote`, the others `join` it; every edit is the facade's (so the
/// write order between the tracks is the one users get), and every sync is `Vault.sync` —
/// binding check, device announcement, migration checks, conflict and orphan collection — over
/// a remote the run chooses. Each zone's acknowledged envelopes are recorded across syncs.
final class VaultDevice: Sendable {
    let name: String
    let vault: Vault
    let acknowledged: [SyncZone: EnvelopeLog] = [.config: EnvelopeLog(), .secrets: EnvelopeLog()]
    /// Zones in which its syncs undid what a revoked device wrote past its cutoff (a race).
    let undos = Mutex(0)
    /// Every config field value this device wrote, sent or not, by "record group version".
    let fieldWrites = Mutex<[String: FieldWrite]>([:])

    /// Every config record and secret this device removed, by "zone record version", with what
    /// it had seen.
    let removals = Mutex<[String: (recordName: String, context: VersionContext)]>([:])

    /// Every secret body this device wrote, by "reference version", with its write context.
    let secretWrites = Mutex<[String: SecretWrite]>([:])

    /// One secret body a device wrote.
    struct SecretWrite: Sendable {
        let reference: String
        let incarnation: Int64
        let version: RecordVersion
        let context: VersionContext
    }

    /// One field group value a device wrote.
    struct FieldWrite: Sendable {
        let recordName: String
        let group: String
        let stamp: FieldStamp
    }

    var config: ConfigStore { vault.config }
    var secrets: SecretStore { vault.secrets }

    /// Where the first device leaves the recovery key the others join with.
    static func recoveryKeyPath(_ directory: String) -> String { directory + "/recovery-key" }

    init(name: String, vault: Vault, skewMilliseconds: Int64) {
        self.name = name
        self.vault = vault
        vault.config.clockSkew.withLock { $0 = skewMilliseconds }
        vault.secrets.clockSkew.withLock { $0 = skewMilliseconds }
    }

    /// The first device: a new vault in `directory/name` that creates the remote at `remoteRoot`.
    /// Device ids come from the run's generator, so object names sort the same in every replay.
    static func creatingRemote(name: String, id: UUID, directory: String, remoteRoot: String, skewMilliseconds: Int64) throws -> VaultDevice {
        let vault = try Vault.create(at: "\(directory)/\(name)", key: .passphrase(try SecretBytes(utf8: name)), kdf: .insecureForTesting(),
                                     backend: .sqlite, deviceID: CanonicalUUID.text(id))
        guard case .created(let recoveryKey) = try vault.setRemote(directory: remoteRoot) else { throw VaultError(.conflict, "the remote existed") }
        try recoveryKey.printable().withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: recoveryKeyPath(directory))) }
        return VaultDevice(name: name, vault: vault, skewMilliseconds: skewMilliseconds)
    }

    /// Another device: a new vault in `directory/name` joining the remote at `remoteRoot`.
    static func joining(name: String, id: UUID, directory: String, remoteRoot: String, skewMilliseconds: Int64) throws -> VaultDevice {
        let recoveryKey = try RecoveryKey(parsing: try SecretBytes(copying: Array(try Data(contentsOf: URL(fileURLWithPath: recoveryKeyPath(directory))))))
        let vault = try Vault.join(at: "\(directory)/\(name)", remote: .directory(remoteRoot), join: JoinCredentials(recoveryKey: recoveryKey),
                                   key: .passphrase(try SecretBytes(utf8: name)), kdf: .insecureForTesting(), backend: .sqlite, deviceID: CanonicalUUID.text(id)).vault
        return VaultDevice(name: name, vault: vault, skewMilliseconds: skewMilliseconds)
    }

    /// The seal this device writes and reads zone objects through (what a thief of its
    /// `remote.json` and `device-keys` has), under the roster it verified last.
    func seal() throws -> SignedSeal {
        guard let binding = try RemoteBinding.load(from: vault.directory) else { throw VaultError(.noRemote, "\(name) has no remote binding") }
        return try vault.objectSeal(binding: binding, roster: try vault.boundMember().roster)
    }

    /// `Vault.sync` of `zones` through `remote` instead of the bound directory, if given.
    func sync(_ zones: [SyncZone], through remote: (any Remote)?, policy: CompactionPolicy) throws -> [ZoneOutcome] {
        let logs = acknowledged
        let outcomes = try vault.sync(zones: zones, compaction: policy, progress: nil, remote: { remote ?? $0 }, stores: { store in
            RecordingZone(store, log: logs[store.zone == SyncZone.config.rawValue ? .config : .secrets]!)
        })
        undos.withLock { $0 += outcomes.count { !$0.undidRevoked.isEmpty } }
        return outcomes
    }

    /// Notes the field values and secret bodies this device wrote that are in its replica now
    /// (after each edit).
    func noteFieldWrites() throws {
        let db = try Connection(path: config.queue.path)
        var found: [String: FieldWrite] = [:]
        for type in ConfigZone.kinds.values {
            try StoredRecord.forEach(db, type) { id, stored in
                for (group, stamp) in zip(type.fieldGroups, stored.stamps) where stamp.version.device == vault.deviceID {
                    let write = FieldWrite(recordName: "\(type.kind)/\(id)", group: group.name, stamp: stamp)
                    found["\(write.recordName) \(group.name) \(stamp.version)"] = write
                }
            }
        }
        fieldWrites.withLock { $0.merge(found) { old, _ in old } }
        for (zone, path) in [("config", config.queue.path), ("secrets", secrets.queue.path)] {
            let removed = try Connection(path: path).query("SELECT record_name, version_clock, context FROM replication_removals WHERE version_device = ?",
                                                           [vault.deviceID]) { row in
                var reader = ByteReader(row.blob(2) ?? [])
                return ("\(zone) \(row.text(0) ?? "") \(row.uint64(1))", (recordName: row.text(0) ?? "", context: try VersionContext.decode(from: &reader)))
            }
            removals.withLock { $0.merge(removed) { old, _ in old } }
        }
        let secretDB = try Connection(path: secrets.queue.path)
        let bodies = try secretDB.query(SecretStore.selectItem + " WHERE version_device = ?", [vault.deviceID]) { row in
            (SecretStore.item(row), SecretStore.itemContext(row))
        }
        secretWrites.withLock { writes in
            for (item, context) in bodies where writes["\(item.reference) \(item.version)"] == nil {
                writes["\(item.reference) \(item.version)"] = SecretWrite(reference: item.reference, incarnation: item.incarnation, version: item.version, context: context)
            }
        }
    }

    /// Everything replicated, in a canonical text form: equal dumps mean equal replicas.
    func dump() throws -> [String] { try ReplicaDump.lines(config: config, secrets: secrets) }
}
