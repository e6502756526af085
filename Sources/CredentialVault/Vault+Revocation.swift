import ConfigTrack
import Membership
import Replication
import SecretTrack
import Sodium

/// Starting an epoch (docs/devices.md, "Revocation and rotation"): `vault rotate` for the same
/// members, `device revoke` without the devices revoked — one roster entry either way, so a crash
/// can never leave a revoked device holding the current epoch.
extension Vault {
    /// Revokes `device` (an id, or the name the roster gives it): appends a `revoke` entry with
    /// its cutoffs (its newest batch in each zone this device has read — sync first) and a new
    /// epoch boxed to every remaining member and the recovery key, then seals this device's
    /// bodies in it. A device that may know the recovery key — the one that made or showed the
    /// current key, or one that joined with it — makes the same entry replace the key: the new one
    /// goes to `deliver` before the entry is written, and is returned. Returns the device revoked.
    /// Needs the vault unlocked.
    public func revokeDevice(_ device: String, deliver: RecoveryKeyDelivery? = nil) throws(VaultError) -> (device: String, recoveryKey: RecoveryKey?) {
        try VaultError.wrapping {
            try directory.withExclusiveLock {
                let member = try boundMember()
                let subject = try Self.member(named: device, in: member.roster, binding: try requireBinding(), chosen: try chosenDeviceNames())
                guard subject != deviceID else {
                    throw VaultError(.invalidInput, "A device cannot revoke itself.", hint: "Revoke it from another device of the vault.")
                }
                let recoveryKey = try Self.mayKnowRecoveryKey(subject, objects: member.objects) ? try RecoveryKey.generate() : nil
                if let recoveryKey { try deliver?(recoveryKey) }
                try startEpoch(.revoke([subject], newRecoveryKey: recoveryKey))
                return (subject, recoveryKey)
            }
        }
    }

    /// Starts a new epoch for the same members (`credctl vault rotate`). Returns its number.
    public func rotateVaultKeys() throws(VaultError) -> UInt32 {
        try VaultError.wrapping { try directory.withExclusiveLock { try startEpoch(.rotate) } }
    }

    /// Replaces the recovery key (`credctl recovery-key rotate`): a `recovery` entry naming the
    /// new key's authority and starting an epoch the old key is not given, so the old key adds
    /// no device and opens nothing from now on. Returns the new key, to be shown once.
    public func rotateRecoveryKey(deliver: RecoveryKeyDelivery? = nil) throws(VaultError) -> RecoveryKey {
        try VaultError.wrapping {
            try directory.withExclusiveLock {
                let key = try RecoveryKey.generate()
                try deliver?(key)
                try startEpoch(.recovery(key))
                return key
            }
        }
    }

    /// Whether `device` may know the current recovery key: it appended the entry that made it the
    /// vault's (and was shown it), or joined with it since.
    static func mayKnowRecoveryKey(_ device: String, objects: [[UInt8]]) throws -> Bool {
        let current = try RecoveryAttestation.currentAuthorityEntry(in: objects)
        if current.entry.signer == device { return true }
        return try objects.dropFirst(Int(current.position) + 1).contains { object in
            let entry = try RosterObjects.entry(of: object)
            if case .add(let added, _, _) = entry.change { return added.id == device && entry.signer == EpochKeyBoxes.recoveryRecipient }
            return false
        }
    }

    /// What an entry that starts an epoch does besides.
    private enum EpochStart {
        case rotate
        case revoke([String], newRecoveryKey: RecoveryKey?)
        case recovery(RecoveryKey)

        var subjects: [String] {
            if case .revoke(let subjects, _) = self { return subjects }
            return []
        }

        var newRecoveryKey: RecoveryKey? {
            switch self {
            case .rotate: nil
            case .revoke(_, let key): key
            case .recovery(let key): key
            }
        }
    }

    private func requireBinding() throws -> RemoteBinding {
        guard let binding = try RemoteBinding.load(from: directory) else { throw VaultError(.noRemote, "This vault has no remote.", hint: "Set one with: credctl remote set DIR") }
        return binding
    }

    @discardableResult
    private func startEpoch(_ start: EpochStart) throws -> UInt32 {
        let subjects = start.subjects
        guard secrets.isUnlocked else {
            throw VaultError(.locked, "Starting an epoch boxes new keys to every member, which needs the vault unlocked.", hint: "Unlock it with its passphrase or key file.")
        }
        let keys = try deviceKeys()
        let deviceKey = try secrets.deviceKey()
        let rosterKey = try keys.rosterKey(deviceKey: deviceKey)
        for _ in 0..<8 {
            var binding = try requireBinding()
            let member = try boundMember()
            binding = try catchUpEpochs(objects: member.objects, binding: binding)
            let current = try Self.currentEpochKeys(in: member.objects, roster: member.roster, recipient: deviceID, syncBox: keys.syncBox,
                                                    vaultBox: try keys.vaultBox(deviceKey: deviceKey))
            guard let currentVault = current.vault else { throw VaultError(.locked, "The current epoch's vault key did not open.") }
            let next = try EpochKeys.generate(epoch: member.roster.epoch + 1)
            let replacement = try start.newRecoveryKey.map { try $0.authority() }
            let authority = replacement.map { RosterChange.Authority(signing: $0.signing.publicKey, box: $0.box.publicKey) } ?? member.roster.authority
            let recipients = member.roster.members.values.filter { !subjects.contains($0.id) }
                .map { EpochKeys.Recipient(id: $0.id, syncBox: $0.syncBox, vaultBox: $0.vaultBox) }
                + [EpochKeys.Recipient(id: EpochKeyBoxes.recoveryRecipient, syncBox: authority.box, vaultBox: authority.box)]
            let boxes = try next.boxes(to: recipients)
            let previous = try next.sealing(previous: current)
            let unproved: RosterChange
            switch start {
            case .rotate: unproved = .rotate(keys: boxes, previous: previous)
            case .recovery: unproved = .recovery(authority: authority, keys: boxes, previous: previous)
            case .revoke:
                unproved = .revoke(devices: try subjects.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { try revocation(of: $0) },
                                   keys: boxes, previous: previous, recovery: replacement == nil ? nil : authority)
            }
            let draft = RosterEntry(position: member.roster.length, previous: member.roster.head, signer: deviceID, change: unproved)
            let proof = try EpochKeys.proof(of: draft, previousVault: currentVault)
            let change: RosterChange
            switch unproved {
            case .rotate(let keys, let previous): change = .rotate(keys: keys.proved(proof), previous: previous)
            case .revoke(let devices, let keys, let previous, let recovery): change = .revoke(devices: devices, keys: keys.proved(proof), previous: previous, recovery: recovery)
            case .recovery(let authority, let keys, let previous): change = .recovery(authority: authority, keys: keys.proved(proof), previous: previous)
            case .genesis, .add: change = unproved
            }
            let object = RosterObjects.next(change, after: member.roster, signer: deviceID, key: rosterKey)
            guard try Self.append(object, to: member.roster, remote: member.remote) != nil else { continue }
            if let replacement {
                // The new key signs the entry that makes it the vault's: joining with it checks that.
                _ = try member.remote.createOnly(RecoveryAttestation.objectName(member.roster.length),
                                                 bytes: RecoveryAttestation.object(signing: replacement.signing, vaultID: member.roster.vaultID, genesis: member.roster.genesis,
                                                                                   position: member.roster.length, entryHash: RosterEntry.hash(ofObject: object)))
            }
            Failpoint.hit("epoch.after-entry")
            try RosterCache.save(member.objects + [object], in: directory)
            try secrets.addEpochKey(next.epoch, key: try requireVaultKey(next.vault))
            try binding.adding([next.epoch: next.transport]).save(in: directory)
            try secrets.resealIfEpochChanged()
            return next.epoch
        }
        throw VaultError(.conflict, "The roster kept changing while this device started an epoch.", hint: "Try again.")
    }

    private func requireVaultKey(_ key: SecretBytes?) throws -> SecretBytes {
        guard let key else { throw VaultError(.corrupt, "A new epoch has no vault key.") }
        return key
    }

    /// A device's cutoffs: in each zone, its newest batch this device has read (the cursor). The
    /// hash of that batch stays zeros, which readers do not check: it must be the bytes this device
    /// applied, which it does not keep (the remote's copy may have been swapped since), and it
    /// waits for the chain of a device's batches (docs/devices.md, "Objects and signatures").
    private func revocation(of device: String) throws -> RosterChange.Revocation {
        var cutoffs: [RosterChange.Cutoff] = []
        for (zone, store) in [("config", ConfigZone(store: config) as any ZoneStore), ("secrets", SecretZone(store: secrets) as any ZoneStore)] {
            cutoffs.append(RosterChange.Cutoff(zone: zone, sequence: try store.syncState().cursors[device] ?? 0, batchHash: [UInt8](repeating: 0, count: SignedFrame.hashCount)))
        }
        return RosterChange.Revocation(device: device, cutoffs: cutoffs)
    }

    /// The member `text` names: its id, or the name the roster gives it (one member only).
    /// A unique start of an id names that device too, as in `git`.
    static func member(named text: String, in roster: RosterState, binding: RemoteBinding, chosen: [String: String] = [:]) throws -> String {
        if roster.members[text] != nil { return text }
        let names = try memberNames(roster: roster, binding: binding).merging(chosen) { _, chosen in chosen }
        var matching = names.filter { LabelText.same($0.value, text) }.map(\.key)
        if matching.isEmpty, text.count >= 4 { matching = roster.members.keys.filter { $0.hasPrefix(text.lowercased()) } }
        guard let only = matching.first else {
            if roster.revoked[text] != nil { throw VaultError(.conflict, "Device \(text) was revoked already.") }
            throw VaultError(.notFound, "No member of this vault is called or numbered '\(text)'.", hint: "List them with: credctl device list")
        }
        guard matching.count == 1 else { throw VaultError(.conflict, "\(matching.count) members are called '\(text)'.", hint: "Give the device id instead: credctl device list") }
        return only
    }

    /// Each member's name, opened with the transport keys this device holds.
    static func memberNames(roster: RosterState, binding: RemoteBinding) throws -> [String: String] {
        let keys = try binding.keys()
        var names: [String: String] = [:]
        for (id, device) in roster.members.merging(roster.former, uniquingKeysWith: { current, _ in current }) {
            names[id] = keys.values.lazy.compactMap { DeviceName.open(device.sealedName, id: id, transportKey: $0) }.first
        }
        return names
    }
}
