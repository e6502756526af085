import ConfigTrack
import Membership
import Replication
import SecretTrack
import Sodium

extension Vault {
    /// `setRemote` for a directory remote.
    @discardableResult
    public func setRemote(directory remotePath: String, join: JoinCredentials = JoinCredentials(), merge: Bool = false) throws(VaultError) -> BindOutcome {
        try setRemote(.directory(VaultDirectory(path: remotePath).path), join: join, merge: merge)
    }

    /// Hands a new recovery key to the user (shows it, or writes its file) before anything that
    /// makes it the vault's is written: a crash afterwards can lose the vault's change, never
    /// the only copy of the key that change depends on.
    public typealias RecoveryKeyDelivery = @Sendable (RecoveryKey) throws -> Void

    /// Binds this vault to a remote (a directory, an S3 bucket), of format 2 (docs/devices.md).
    ///
    /// With no vault on the remote, this device creates one: a roster whose genesis makes it the
    /// first member, epoch 1 boxed to it and to a new recovery key (returned, to be shown once).
    /// With a vault there, this device binds if it is a member, and otherwise joins: with the
    /// recovery key at once, or by writing a join request a member approves — then binding again
    /// with the confirmation code finishes the join. A vault that joins another vault takes its
    /// id and key (its secrets sealed again under it) and sends all its records with the next sync.
    /// Needs the vault unlocked, except to bind again as a member.
    ///
    /// `merge` rebinds explicitly after the remote was reset or moved: cursors reset and every
    /// surviving local record is queued again, so the remote receives this device's whole state.
    @discardableResult
    public func setRemote(_ address: RemoteAddress, join: JoinCredentials = JoinCredentials(), merge: Bool = false,
                          deliver: RecoveryKeyDelivery? = nil) throws(VaultError) -> BindOutcome {
        // Under the lock sync holds: no sync runs between the key change and the new binding.
        try VaultError.wrapping { try directory.withExclusiveLock { try setRemoteLocked(address, join: join, merge: merge, deliver: deliver) } }
    }

    private func setRemoteLocked(_ address: RemoteAddress, join: JoinCredentials, merge: Bool, deliver: RecoveryKeyDelivery?) throws -> BindOutcome {
        try VaultError.wrapping {
            // A name given here is the one this device goes by from now on, in the roster and
            // in its config record alike.
            if let name = join.name { try config.chooseDeviceName(name) }
            let previous = try RemoteBinding.load(from: directory)
            let conditionalWrites = try address.prepare()
            let remote = try address.open(conditionalWrites: conditionalWrites)
            let document = try Self.document(on: remote)
            if let previous, previous.format == RemoteBinding.format {
                let unchanged = try document?.genesis == previous.pinnedGenesis() && previous.address() == address
                if unchanged {
                    guard merge else { return .bound }
                    // Rebinding to the same remote accepts it as it is now (rolled back, restored
                    // from a backup): what was read before is forgotten and everything sent again,
                    // under sequences past every one this device used (others have read those).
                    try finishRebind(previous, remote: remote, keepingSequences: true)
                    return .bound
                }
                if !merge { throw Self.rebindNeeded(address.description) }
            }
            // Bound before (to a remote since reset or moved, or of format 1): everything is sent again.
            let requeue = previous != nil
            guard let document else {
                let (binding, recoveryKey) = try createRemote(address, remote: remote, name: join.name, conditionalWrites: conditionalWrites, requeue: requeue,
                                                              deliver: deliver)
                if requeue { try finishRebind(binding, remote: remote) }
                return .created(recoveryKey: recoveryKey)
            }
            let outcome = try joinRemote(address, remote: remote, document: document, join: join, conditionalWrites: conditionalWrites, requeue: requeue)
            if case .joined = outcome, let binding = try RemoteBinding.load(from: directory), binding.requeuePending == true {
                try finishRebind(binding, remote: remote)
            }
            return outcome
        }
    }

    /// `vault.json` on `remote`, or nil when there is none; a remote of format 1 is refused with
    /// the command that upgrades it.
    static func document(on remote: any Remote) throws -> VaultDocument? {
        guard let bytes = try remote.get(VaultDocument.objectName) else { return nil }
        do {
            return try VaultDocument.decode(bytes)
        } catch let error as ReplicationError where error.code == .unsupportedFormat {
            throw VaultError(.conflict, error.message, hint: "Upgrade it from a device that synced with it: credctl remote upgrade")
        }
    }

    /// A new vault on `remote` with this device its first member: the genesis first, then
    /// `vault.json` naming it (a crash between leaves a genesis of this device's, which the next
    /// try replaces: no other device can have joined a remote with no `vault.json`).
    /// `clearing` names objects removed once the roster is written and before `vault.json` names
    /// it (a format-1 remote's objects, its `vault.json` last).
    func createRemote(_ address: RemoteAddress, remote: any Remote, name: String?, conditionalWrites: Bool,
                      requeue: Bool, deliver: RecoveryKeyDelivery?, clearing: [String] = []) throws -> (RemoteBinding, RecoveryKey) {
        guard secrets.isUnlocked else {
            throw VaultError(.locked, "Creating a remote boxes the vault key to this device and the recovery key, which needs the vault unlocked.",
                             hint: "Unlock it with its passphrase or key file.")
        }
        let keys = try deviceKeys()
        let deviceKey = try secrets.deviceKey()
        let recoveryKey = try RecoveryKey.generate()
        try deliver?(recoveryKey)
        let authority = try recoveryKey.authority()
        let epoch = EpochKeys(epoch: 1, transport: try .random(count: SealedBox.keyCount), vault: try secrets.vaultKeyForPublishing())
        let boxes = try epoch.boxes(to: [.init(id: EpochKeyBoxes.recoveryRecipient, syncBox: authority.box.publicKey, vaultBox: authority.box.publicKey),
                                         .init(id: deviceID, syncBox: keys.syncBox.publicKey, vaultBox: keys.vaultBoxPublicKey)])
        let sealedName = try DeviceName.seal(name ?? config.deviceName, id: deviceID, transportKey: epoch.transport)
        let genesis = RosterObjects.genesis(vaultID: vaultID, creator: keys.publicKeys(sealedName: sealedName),
                                            authority: .init(signing: authority.signing.publicKey, box: authority.box.publicKey),
                                            keys: boxes, rosterKey: try keys.rosterKey(deviceKey: deviceKey))
        let first = RosterEntry.objectName(0)
        if let leftover = try remote.get(first), leftover != genesis {
            guard case .genesis(_, let creator, _, _)? = try? RosterObjects.entry(of: leftover).change, creator.id == deviceID else {
                throw VaultError(.conflict, "Another device is creating a vault on \(address.description) right now.", hint: "Wait a moment, then bind again.")
            }
            try remote.delete(RecoveryAttestation.objectName(0))
            try remote.delete(first)
        }
        if try remote.createOnly(first, bytes: genesis) != .created && remote.get(first) != genesis {
            throw VaultError(.conflict, "Another device is creating a vault on \(address.description) right now.", hint: "Wait a moment, then bind again.")
        }
        let hash = RosterEntry.hash(ofObject: genesis)
        _ = try remote.createOnly(RecoveryAttestation.objectName(0), bytes: RecoveryAttestation.object(signing: authority.signing, vaultID: vaultID, genesis: hash,
                                                                                                       position: 0, entryHash: hash))
        Failpoint.hit("remote-set.after-genesis")
        for object in clearing { try remote.delete(object) }
        _ = try remote.createOnly(VaultDocument.objectName, bytes: VaultDocument(vaultID: vaultID, genesis: hash).encoded)
        try RosterCache.save([genesis], in: directory)
        let binding = RemoteBinding(address: address, vaultID: vaultID, genesis: hash, transportKeys: [1: epoch.transport],
                                    requeuePending: requeue ? true : nil, conditionalWrites: conditionalWrites)
        try binding.save(in: directory)
        // Secrets stored before the remote was bound become syncable now (and on every unlock).
        try secrets.migrateDeviceOnlyItems()
        return (binding, recoveryKey)
    }

    /// The second half of a rebind: cursors reset and every surviving record queued again, so
    /// the remote receives this device's whole state; then the binding says it is done.
    func finishRebind(_ binding: RemoteBinding, remote: any Remote, keepingSequences: Bool = false) throws {
        let configZone = ConfigZone(store: config), secretZone = SecretZone(store: secrets)
        func next(_ store: any ZoneStore) throws -> UInt64 {
            let onRemote = try SyncTables.nextSequence(on: remote, zone: store.zone, device: deviceID)
            return keepingSequences ? max(onRemote, try store.syncState().nextSequence) : onRemote
        }
        try configZone.requeueAll(nextSequence: try next(configZone))
        try secretZone.requeueAll(nextSequence: try next(secretZone))
        var done = binding
        done.requeuePending = nil
        try done.save(in: directory)
    }

    static func rebindNeeded(_ location: String) -> VaultError {
        VaultError(.conflict, "This vault is bound to a remote that has since changed (reset, replaced or moved).",
                   hint: "Rebind explicitly with: credctl remote set \(location) --merge")
    }

    /// Whether this vault syncs with a remote (new secrets are then syncable at once).
    public var hasRemote: Bool { (try? RemoteBinding.load(from: directory)) != nil }

    /// Where this vault syncs as bound now; nil without a remote, or with a binding this build
    /// cannot read (sync then says why).
    public var remoteAddress: RemoteAddress? { try? RemoteBinding.load(from: directory)?.address() }

    /// Where new secrets go: syncable once a remote is bound, device-only before.
    var newSecretAvailability: Availability { hasRemote ? .syncable : .deviceOnly }
}
