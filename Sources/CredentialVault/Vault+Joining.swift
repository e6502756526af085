import Membership
import Replication
import Sodium

/// How a device becomes a member of the vault on a remote (docs/devices.md, "Joining by
/// approval", and joining by recovery key).
extension Vault {
    func joinRemote(_ address: RemoteAddress, remote: any Remote, document: VaultDocument, join: JoinCredentials, conditionalWrites: Bool,
                    requeue: Bool) throws -> BindOutcome {
        guard secrets.isUnlocked else {
            throw VaultError(.locked, "Joining a vault opens its keys with this device's own, which needs the vault unlocked.", hint: "Unlock it with its passphrase or key file.")
        }
        let keys = try deviceKeys()
        let deviceKey = try secrets.deviceKey()
        let roster = try RosterReader.read(from: remote, pinned: document.genesis, known: [])
        let finish = { (state: RosterState, objects: [[UInt8]], epoch: EpochKeys) in
            try self.finishJoin(address, document: document, objects: objects, epoch: epoch, conditionalWrites: conditionalWrites, requeue: requeue)
        }
        if roster.state.revoked[deviceID] != nil {
            throw VaultError(.revoked, "This device was revoked from the vault on \(address.description).", hint: "Join it again as a new device: credctl init --join with another --vault.")
        }
        // Already a member (the remote moved, or this binding was lost): bound again once the
        // vault key boxed to it is this vault's own — which only a real member could have boxed.
        // (A device approved but not confirmed yet is a member too, of a vault that is not yet its own.)
        if let member = roster.state.members[deviceID], member.signing == keys.signing.publicKey, document.vaultID == vaultID {
            let epoch = try Self.currentEpochKeys(in: roster.objects, roster: roster.state, recipient: deviceID, syncBox: keys.syncBox,
                                                  vaultBox: try keys.vaultBox(deviceKey: deviceKey))
            let ownKey = try secrets.vaultKeyForPublishing()
            guard try Self.history(from: epoch, objects: roster.objects)[1]?.vault == ownKey else {
                throw VaultError(.conflict, "The remote names this device as a member of a vault whose keys are not this vault's.", hint: "Bind to the remote this vault was created on.")
            }
            return try finish(roster.state, roster.objects, epoch)
        }
        if let recoveryKey = join.recoveryKey {
            // Added already by an earlier try that was cut short: finished with its own boxes.
            if let member = roster.state.members[deviceID], member.signing == keys.signing.publicKey {
                try Self.checkAttested(by: try recoveryKey.authority().signing, roster: roster.state, objects: roster.objects, remote: remote)
                return try finish(roster.state, roster.objects, try Self.currentEpochKeys(in: roster.objects, roster: roster.state, recipient: deviceID,
                                                                                       syncBox: keys.syncBox, vaultBox: try keys.vaultBox(deviceKey: deviceKey)))
            }
            return try joinWithRecoveryKey(recoveryKey, remote: remote, roster: roster, keys: keys, name: join.name, finish: finish)
        }
        return try joinByApproval(address, remote: remote, document: document, roster: roster, keys: keys, deviceKey: deviceKey, join: join,
                                  conditionalWrites: conditionalWrites, finish: finish)
    }

    /// The recovery key derives the recovery authority: it must be the one the roster names now
    /// (which authenticates the vault), it opens the current epoch, and it signs this device's `add`.
    private func joinWithRecoveryKey(_ recoveryKey: RecoveryKey, remote: any Remote, roster read: (state: RosterState, objects: [[UInt8]]), keys: DeviceKeys,
                                     name: String?, finish: (RosterState, [[UInt8]], EpochKeys) throws -> BindOutcome) throws -> BindOutcome {
        let authority = try recoveryKey.authority()
        var (state, objects) = read
        try Self.checkAttested(by: authority.signing, roster: state, objects: objects, remote: remote)
        for _ in 0..<8 {
            let epoch = try Self.currentEpochKeys(in: objects, roster: state, recipient: EpochKeyBoxes.recoveryRecipient, syncBox: authority.box, vaultBox: authority.box)
            let device = keys.publicKeys(sealedName: try DeviceName.seal(name ?? config.deviceName, id: deviceID, transportKey: epoch.transport))
            let boxes = try epoch.boxes(to: [.init(id: deviceID, syncBox: keys.syncBox.publicKey, vaultBox: keys.vaultBoxPublicKey)])
            let object = RosterObjects.next(.add(device: device, request: [UInt8](repeating: 0, count: SignedFrame.hashCount), keys: boxes),
                                            after: state, signer: EpochKeyBoxes.recoveryRecipient, key: authority.signing)
            if let next = try Self.append(object, to: state, remote: remote) {
                return try finish(next, objects + [object], epoch)
            }
            // Another device appended first: again on the roster that holds.
            (state, objects) = try RosterReader.read(from: remote, pinned: state.genesis, known: objects)
        }
        throw VaultError(.conflict, "The roster kept changing while this device tried to join.", hint: "Try again.")
    }

    /// The roster is this recovery key's vault: it names the key as its recovery authority, and
    /// the key signed the entry that made it so (its public halves alone prove nothing: anyone can
    /// copy them into a genesis of their own).
    static func checkAttested(by signing: SigningKeyPair, roster: RosterState, objects: [[UInt8]], remote: any Remote) throws {
        guard roster.authority.signing == signing.publicKey else {
            throw VaultError(.wrongKey, "This recovery key is not the one of the vault on this remote (or it was replaced).",
                             hint: "Use the newest recovery key this vault showed, or ask a member device to approve this one.")
        }
        let current = try RecoveryAttestation.currentAuthorityEntry(in: objects)
        guard let attestation = try remote.get(RecoveryAttestation.objectName(current.position)),
              RecoveryAttestation.verifies(attestation, publicKey: signing.publicKey, vaultID: roster.vaultID, genesis: roster.genesis,
                                           position: current.position, entryHash: RosterEntry.hash(ofObject: current.object)) else {
            throw VaultError(.wrongKey, "The roster on this remote names this recovery key, but the key never signed it: it is not the key's vault.",
                             hint: "Do not use this remote; check where it points.")
        }
    }

    private func joinByApproval(_ address: RemoteAddress, remote: any Remote, document: VaultDocument, roster: (state: RosterState, objects: [[UInt8]]),
                                keys: DeviceKeys, deviceKey: SecretBytes, join: JoinCredentials, conditionalWrites: Bool,
                                finish: (RosterState, [[UInt8]], EpochKeys) throws -> BindOutcome) throws -> BindOutcome {
        let requestName = JoinRequest.objectName(deviceID)
        // The vault asked is the one answering: the genesis the request was made for, and an
        // approval of that very request.
        let saved = try PendingJoin.load(from: directory)
        let asked = saved?.requestHash.flatMap(Base64.decode)
        if asked != nil, let saved, try saved.pinnedGenesis() != document.genesis {
            throw VaultError(.conflict, "The vault on \(address.description) is not the one this device asked to join (its roster starts from another genesis).",
                             hint: "If the remote was reset, ask again: remove \(PendingJoin.path(in: directory)) and run the join again.")
        }
        // Approved: the `add` naming this device's own keys is trusted only with the code the
        // approving member showed, which covers the genesis and that entry.
        for object in roster.objects {
            guard case .add(let device, let request, _) = try RosterObjects.entry(of: object).change, device.id == deviceID,
                  device.signing == keys.signing.publicKey, asked == nil || request == asked! else { continue }
            guard let typed = join.confirmation else { return .awaitingConfirmation }
            guard JoinCode.matches(typed, JoinCode.confirmation(genesis: document.genesis, addEntry: RosterEntry.hash(ofObject: object))) else {
                throw VaultError(.wrongKey, "The confirmation code does not match the approval on the remote.",
                                 hint: "Type the code credctl device approve printed on the approving device. If no device of yours approved this one, do not use this remote.")
            }
            let epoch = try Self.currentEpochKeys(in: roster.objects, roster: roster.state, recipient: deviceID, syncBox: keys.syncBox,
                                                  vaultBox: try keys.vaultBox(deviceKey: deviceKey))
            try? remote.delete(requestName)
            return try finish(roster.state, roster.objects, epoch)
        }
        let now = UInt64(HybridLogicalClock.wallMilliseconds() / 1_000)
        var pending = RemoteBinding(address: address, vaultID: document.vaultID, genesis: document.genesis, transportKeys: [:], conditionalWrites: conditionalWrites)
        if let bytes = try remote.get(requestName) {
            if let request = try? JoinRequest.read(bytes, objectName: requestName, vaultID: document.vaultID, genesis: document.genesis, now: now),
               request.device.signing == keys.signing.publicKey {
                pending.requestHash = Base64.encode(GenericHash.hash(bytes))
                try PendingJoin.save(pending, in: directory)
                return .awaitingApproval(code: request.verificationCode)
            }
            // Expired, or left by an earlier try with other keys: replaced.
            try remote.delete(requestName)
        }
        let object = try JoinRequest.object(keys: keys, name: join.name ?? config.deviceName, members: roster.state.members.mapValues(\.syncBox),
                                            vaultID: document.vaultID, genesis: document.genesis, now: now)
        pending.requestHash = Base64.encode(GenericHash.hash(object))
        // Noted before it is written: an approval of it is recognised whatever happens next.
        try PendingJoin.save(pending, in: directory)
        _ = try remote.createOnly(requestName, bytes: object)
        let request = try JoinRequest.read(object, objectName: requestName, vaultID: document.vaultID, genesis: document.genesis, now: now)
        return .awaitingApproval(code: request.verificationCode)
    }

    /// Binds to the vault joined: its id and key taken when they are not this vault's own, the
    /// roster verified so far kept, and the join request forgotten.
    private func finishJoin(_ address: RemoteAddress, document: VaultDocument, objects: [[UInt8]], epoch: EpochKeys, conditionalWrites: Bool,
                            requeue: Bool) throws -> BindOutcome {
        let adopting = document.vaultID != vaultID
        // Boxed only the newest epoch, this device reads every earlier one through the keys each
        // epoch's entry carries.
        let history = try Self.history(from: epoch, objects: objects)
        let later = history.filter { $0.key > 1 }.compactMapValues(\.vault)
        if adopting {
            guard let vaultKey = history[1]?.vault else { throw VaultError(.locked, "Joining a vault needs its vault key, which needs this vault unlocked.") }
            try secrets.adoptVault(id: document.vaultID, vaultKey: vaultKey, epochKeys: later)
        } else {
            for (number, key) in later { try secrets.addEpochKey(number, key: key) }
        }
        try RosterCache.save(objects, in: directory)
        let binding = RemoteBinding(address: address, vaultID: document.vaultID, genesis: document.genesis, transportKeys: history.mapValues(\.transport),
                                    requeuePending: requeue || adopting ? true : nil, conditionalWrites: conditionalWrites)
        try binding.save(in: directory)
        PendingJoin.remove(from: directory)
        try secrets.migrateDeviceOnlyItems()
        try secrets.resealIfEpochChanged()
        return .joined(adopted: adopting)
    }
}
