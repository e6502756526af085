import Membership
import Replication
import Sodium

/// Epochs as this device meets them (docs/devices.md, "Keys" and "Revocation and rotation"):
/// the keys of every epoch the roster started are opened from this device's boxes and kept
/// (transport keys in the binding, vault keys sealed in the secret store); starting one boxes new
/// keys to every remaining member.
extension Vault {
    /// Opens, from every entry of `objects` that boxes keys to this device, the epochs it does not
    /// hold yet — transport keys always, vault keys when the vault is unlocked — each checked
    /// against its commitments and, where this device holds the previous vault key, its proof.
    /// Returns the binding with the new transport keys (unchanged when there were none).
    func catchUpEpochs(objects: [[UInt8]], binding: RemoteBinding) throws -> RemoteBinding {
        let keys = try deviceKeys()
        var transport = try binding.keys()
        let unlocked = secrets.isUnlocked
        var vault = unlocked ? try secrets.heldEpochs() : []
        let vaultBox = unlocked ? try keys.vaultBox(deviceKey: try secrets.deviceKey()) : nil
        var learned: [UInt32: SecretBytes] = [:]
        for object in objects {
            let entry = try RosterObjects.entry(of: object)
            let boxes = entry.change.keys
            guard boxes.boxes.contains(where: { $0.recipient == deviceID }),
                  transport[boxes.epoch] == nil || (unlocked && !vault.contains(boxes.epoch)) else { continue }
            let opened = try EpochKeys.open(boxes, as: deviceID, syncBox: keys.syncBox, vaultBox: vaultBox)
            if let previousVault = unlocked ? try secrets.vaultKey(epoch: boxes.epoch - 1) : nil, boxes.epoch > 1, entry.change.kind != 1 {
                guard try EpochKeys.proof(of: entry, previousVault: previousVault) == boxes.proof else {
                    throw MembershipError(.rosterDoesNotVerify, "The roster does not verify at entry \(entry.position): epoch \(boxes.epoch) was not started by a holder of epoch \(boxes.epoch - 1)'s vault key.")
                }
            }
            if transport[boxes.epoch] == nil {
                transport[boxes.epoch] = opened.transport
                learned[boxes.epoch] = opened.transport
            }
            if let key = opened.vault, !vault.contains(boxes.epoch) {
                try secrets.addEpochKey(boxes.epoch, key: key)
                vault.insert(boxes.epoch)
            }
        }
        return learned.isEmpty ? binding : binding.adding(learned)
    }

    /// Every epoch's keys from 1 to `newest`, walking back through the previous keys each
    /// epoch-starting entry carries (a device that joins late is boxed only the newest).
    static func history(from newest: EpochKeys, objects: [[UInt8]]) throws -> [UInt32: EpochKeys] {
        var all = [newest.epoch: newest]
        var current = newest
        let starts = try objects.map(RosterObjects.entry(of:)).filter { $0.change.kind != 1 }
        while current.epoch > 1 {
            guard let entry = starts.first(where: { $0.change.keys.epoch == current.epoch }) else {
                throw VaultError(.corrupt, "The roster holds no entry that starts epoch \(current.epoch).")
            }
            let previous: RosterChange.PreviousKeys
            switch entry.change {
            case .revoke(_, _, let sealed, _), .rotate(_, let sealed), .recovery(_, _, let sealed): previous = sealed
            case .genesis, .add: throw VaultError(.corrupt, "Epoch \(current.epoch) is started by an entry that carries no earlier keys.")
            }
            current = try current.opening(previous: previous)
            // Each key walked back to is checked against the entry that started its epoch.
            if let started = starts.first(where: { $0.change.keys.epoch == current.epoch }), try !EpochKeys.matches(current, started.change.keys) {
                throw VaultError(.corrupt, "The keys of epoch \(current.epoch) carried by epoch \(current.epoch + 1)'s entry are not the ones epoch \(current.epoch) committed to.")
            }
            all[current.epoch] = current
        }
        return all
    }
}
