import Replication
import Sodium

/// One epoch's transport and vault keys (docs/devices.md, "Keys"): made by the device that starts
/// the epoch, boxed to every recipient in the roster entry, committed to so every recipient holds
/// the same keys, and — from the second epoch on — proved made by a holder of the previous
/// epoch's vault key.
public struct EpochKeys: Sendable {
    public let epoch: UInt32
    public let transport: SecretBytes
    /// Nil on a device that opened only its transport box (locked).
    public let vault: SecretBytes?

    public init(epoch: UInt32, transport: SecretBytes, vault: SecretBytes?) {
        self.epoch = epoch
        self.transport = transport
        self.vault = vault
    }

    public static func generate(epoch: UInt32) throws -> EpochKeys {
        EpochKeys(epoch: epoch, transport: try SecretBytes.random(count: SealedBox.keyCount), vault: try SecretBytes.random(count: SealedBox.keyCount))
    }

    /// A recipient of an epoch: a member device's box keys, or the recovery authority's (whose
    /// one box key receives both).
    public struct Recipient: Sendable {
        public let id: String
        public let syncBox: [UInt8]
        public let vaultBox: [UInt8]

        public init(id: String, syncBox: [UInt8], vaultBox: [UInt8]) {
            self.id = id
            self.syncBox = syncBox
            self.vaultBox = vaultBox
        }
    }

    /// The commitment to one of an epoch's keys.
    static func commitment(_ key: SecretBytes, epoch: UInt32, kind: String) throws -> [UInt8] {
        let digest = try GenericHash.secretHash(of: key, domain: Array("credvault/v2/epoch-\(kind)-\(epoch)".utf8))
        return digest.withUnsafeBytes { Array($0) }
    }

    /// The keys boxed to `recipients` (sorted by id bytes), with both commitments and no proof yet.
    public func boxes(to recipients: [Recipient]) throws -> EpochKeyBoxes {
        guard let vault else { throw MembershipError(.epochKeys, "An epoch can only be started with its vault key.") }
        let sorted = recipients.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        return EpochKeyBoxes(epoch: epoch, transportCommit: try Self.commitment(transport, epoch: epoch, kind: "transport"),
                             vaultCommit: try Self.commitment(vault, epoch: epoch, kind: "vault"),
                             boxes: try sorted.map { EpochKeyBoxes.Box(recipient: $0.id, transport: try BoxKeyPair.seal(transport, to: $0.syncBox),
                                                                       vault: try BoxKeyPair.seal(vault, to: $0.vaultBox)) },
                             proof: [UInt8](repeating: 0, count: SignedFrame.hashCount))
    }

    /// This recipient's keys out of `boxes`, each checked against its commitment: the transport
    /// key always, the vault key when `vaultBox` is given (the vault unlocked).
    public static func open(_ boxes: EpochKeyBoxes, as recipient: String, syncBox: BoxKeyPair, vaultBox: BoxKeyPair?) throws -> EpochKeys {
        guard let box = boxes.boxes.first(where: { $0.recipient == recipient }) else {
            throw MembershipError(.epochKeys, "Epoch \(boxes.epoch) is not boxed to this device.")
        }
        let transport = try syncBox.open(box.transport)
        guard try commitment(transport, epoch: boxes.epoch, kind: "transport") == boxes.transportCommit else {
            throw MembershipError(.epochKeys, "Epoch \(boxes.epoch)'s transport key boxed to this device is not the one its entry commits to.")
        }
        var vault: SecretBytes?
        if let vaultBox {
            let opened = try vaultBox.open(box.vault)
            guard try commitment(opened, epoch: boxes.epoch, kind: "vault") == boxes.vaultCommit else {
                throw MembershipError(.epochKeys, "Epoch \(boxes.epoch)'s vault key boxed to this device is not the one its entry commits to.")
            }
            vault = opened
        }
        return EpochKeys(epoch: boxes.epoch, transport: transport, vault: vault)
    }

    /// The proof that `entry` was made by a holder of `previousVault`: a keyed hash of the entry
    /// with its proof zeroed.
    public static func proof(of entry: RosterEntry, previousVault: SecretBytes) throws -> [UInt8] {
        try GenericHash.keyedHash(Array("credvault/v2/epoch-proof".utf8) + [0] + entry.withoutProof.encoded, key: previousVault)
    }
}

extension RosterEntry {
    /// The entry with its epoch's proof zeroed (what the proof covers).
    var withoutProof: RosterEntry {
        let zero = [UInt8](repeating: 0, count: SignedFrame.hashCount)
        let change: RosterChange
        switch self.change {
        case .genesis, .add: return self
        case .revoke(let devices, let keys, let previous, let recovery): change = .revoke(devices: devices, keys: keys.proved(zero), previous: previous, recovery: recovery)
        case .rotate(let keys, let previous): change = .rotate(keys: keys.proved(zero), previous: previous)
        case .recovery(let authority, let keys, let previous): change = .recovery(authority: authority, keys: keys.proved(zero), previous: previous)
        }
        return RosterEntry(position: position, previous: self.previous, signer: signer, change: change)
    }
}

extension EpochKeys {
    static let previousPurpose = SealPurpose(tag: 13, label: "credvault/v2/previous-epoch")

    private static func previousContext(_ kind: String, epoch: UInt32) -> [UInt8] { Array("\(kind)\u{0}\(epoch)".utf8) }

    /// `previous`'s keys, each sealed under this epoch's key of its kind: what an entry starting
    /// this epoch carries, so a member given only the newest epoch reads all history.
    public func sealing(previous: EpochKeys) throws -> RosterChange.PreviousKeys {
        guard let vault, let previousVault = previous.vault, previous.epoch + 1 == epoch else {
            throw MembershipError(.epochKeys, "An epoch carries the keys of the one before it, both whole.")
        }
        return RosterChange.PreviousKeys(
            transport: try SealedBox.seal(previous.transport, key: transport, purpose: Self.previousPurpose, context: Self.previousContext("transport", epoch: previous.epoch)),
            vault: try SealedBox.seal(previousVault, key: vault, purpose: Self.previousPurpose, context: Self.previousContext("vault", epoch: previous.epoch)))
    }

    /// The keys of the epoch before this one, out of `sealed` (the vault key only when this
    /// epoch's vault key is held).
    public func opening(previous sealed: RosterChange.PreviousKeys) throws -> EpochKeys {
        let before = epoch - 1
        do {
            let transport = try SealedBox.open(sealed.transport, key: self.transport, purpose: Self.previousPurpose, context: Self.previousContext("transport", epoch: before))
            let vault = try self.vault.map { try SealedBox.open(sealed.vault, key: $0, purpose: Self.previousPurpose, context: Self.previousContext("vault", epoch: before)) }
            return EpochKeys(epoch: before, transport: transport, vault: vault)
        } catch {
            throw MembershipError(.epochKeys, "The keys of epoch \(before) carried by epoch \(epoch)'s entry do not open.")
        }
    }

    /// Whether `keys` are exactly the ones `boxes` commits to (the vault key only when held).
    public static func matches(_ keys: EpochKeys, _ boxes: EpochKeyBoxes) throws -> Bool {
        guard keys.epoch == boxes.epoch, try commitment(keys.transport, epoch: keys.epoch, kind: "transport") == boxes.transportCommit else { return false }
        guard let vault = keys.vault else { return true }
        return try commitment(vault, epoch: keys.epoch, kind: "vault") == boxes.vaultCommit
    }
}
