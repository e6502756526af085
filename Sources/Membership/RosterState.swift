import Replication
import Sodium

/// The roster as verified from its genesis (docs/devices.md, "The roster"): who is a member,
/// who was revoked and from where, the recovery authority, and the current epoch. Each entry is
/// appended only if it keeps every rule; the first one that does not makes the roster not verify,
/// with the position and the rule. Checks that need an epoch's keys (a recipient's box against
/// the commitment, the proof against the previous vault key) are made by the member holding
/// them, separately.
public struct RosterState: Sendable {
    public let vaultID: String
    /// The hash of the genesis entry: pinned by every device when it joins, and signed into
    /// every object.
    public let genesis: [UInt8]
    public private(set) var length: UInt64
    /// The hash of the newest entry.
    public private(set) var head: [UInt8]
    public private(set) var members: [String: DevicePublicKeys]
    /// Revoked devices and their cutoffs.
    public private(set) var revoked: [String: [RosterChange.Cutoff]]
    /// What the roster said of each revoked device while it was a member: its objects up to its
    /// cutoffs still verify under these keys.
    public private(set) var former: [String: DevicePublicKeys] = [:]
    public private(set) var authority: RosterChange.Authority
    public private(set) var epoch: UInt32
    /// Every id ever added: none is added twice.
    private var added: Set<String>

    public static let maximumMembers = 1_024
    /// The proof of an entry that starts no epoch from a previous one (genesis, add).
    static let noProof = [UInt8](repeating: 0, count: SignedFrame.hashCount)

    /// Starts from the genesis object, which must hash to `pinned` when this device has pinned one.
    public init(genesis object: [UInt8], pinned: [UInt8]?) throws {
        let hash = RosterEntry.hash(ofObject: object)
        if let pinned, pinned != hash { throw Self.failure(0, "the genesis is not the one this device joined") }
        let (frame, entry) = try Self.read(object, position: 0)
        guard case .genesis(let vaultID, let creator, let recovery, let keys) = entry.change,
              entry.previous == [UInt8](repeating: 0, count: SignedFrame.hashCount), entry.signer == creator.id else {
            throw Self.failure(0, "the first entry is not a genesis signed by its creator")
        }
        guard frame.verifies(at: SignedFrame.Place(vaultID: vaultID, genesis: [UInt8](repeating: 0, count: SignedFrame.hashCount),
                                                  objectName: RosterEntry.objectName(0)), publicKey: creator.roster) else {
            throw Self.failure(0, "its signature does not verify")
        }
        guard keys.epoch == 1, keys.boxes.map(\.recipient) == [EpochKeyBoxes.recoveryRecipient, creator.id], keys.proof == Self.noProof else {
            throw Self.failure(0, "epoch 1 is not boxed to exactly its creator and the recovery authority")
        }
        try Self.checkUsable(creator, at: 0)
        self.vaultID = vaultID
        genesis = hash
        length = 1
        head = hash
        members = [creator.id: creator]
        revoked = [:]
        self.authority = recovery
        epoch = 1
        added = [creator.id]
    }

    /// Appends the object of the next position, or throws why the roster does not verify there;
    /// returns its entry.
    @discardableResult
    public mutating func append(_ object: [UInt8]) throws -> RosterEntry {
        let position = length
        let (frame, entry) = try Self.read(object, position: position)
        guard entry.position == position, entry.previous == head else { throw Self.failure(position, "it does not follow the entry before it") }
        // The signer is a member now (or, for adding a device only, the recovery authority).
        let key: [UInt8]
        if entry.signer == EpochKeyBoxes.recoveryRecipient {
            guard case .add = entry.change else { throw Self.failure(position, "the recovery authority may only add a device") }
            key = authority.signing
        } else {
            guard let signer = members[entry.signer] else { throw Self.failure(position, "its signer \(entry.signer) is not a member") }
            key = signer.roster
        }
        guard frame.verifies(at: SignedFrame.Place(vaultID: vaultID, genesis: genesis, objectName: RosterEntry.objectName(position)), publicKey: key) else {
            throw Self.failure(position, "its signature does not verify")
        }
        var next = self
        switch entry.change {
        case .genesis:
            throw Self.failure(position, "a second genesis")
        case .add(let device, _, let keys):
            guard !added.contains(device.id), device.id != EpochKeyBoxes.recoveryRecipient else {
                throw Self.failure(position, "device \(device.id) was added before")
            }
            guard members.count < Self.maximumMembers else { throw Self.failure(position, "a vault has at most \(Self.maximumMembers) devices") }
            guard keys.epoch == epoch, keys.boxes.map(\.recipient) == [device.id], keys.proof == Self.noProof else {
                throw Self.failure(position, "the current epoch is not boxed to exactly the new device")
            }
            try Self.checkUsable(device, at: position)
            next.members[device.id] = device
            next.added.insert(device.id)
        case .revoke(let devices, let keys, _, let recovery):
            for revocation in devices {
                guard next.members[revocation.device] != nil, revocation.device != entry.signer else {
                    throw Self.failure(position, "it revokes \(revocation.device), which is not another member")
                }
                next.former[revocation.device] = next.members[revocation.device]
                next.members[revocation.device] = nil
                next.revoked[revocation.device] = revocation.cutoffs
            }
            guard !next.members.isEmpty else { throw Self.failure(position, "it revokes every member") }
            if let recovery { next.authority = recovery }
            try next.startEpoch(keys, at: position)
        case .rotate(let keys, _):
            try next.startEpoch(keys, at: position)
        case .recovery(let recovery, let keys, _):
            next.authority = recovery
            try next.startEpoch(keys, at: position)
        }
        next.length = position + 1
        next.head = RosterEntry.hash(ofObject: object)
        self = next
        return entry
    }

    /// A new epoch: the next number, boxed to exactly the members and the recovery authority.
    private mutating func startEpoch(_ keys: EpochKeyBoxes, at position: UInt64) throws {
        let recipients = ([EpochKeyBoxes.recoveryRecipient] + members.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        guard keys.epoch == epoch + 1, keys.boxes.map(\.recipient) == recipients else {
            throw Self.failure(position, "epoch \(keys.epoch) is not the next one, boxed to exactly the members and the recovery authority")
        }
        epoch = keys.epoch
    }

    private static func read(_ object: [UInt8], position: UInt64) throws -> (SignedFrame.Received, RosterEntry) {
        do {
            let frame = try SignedFrame.parse(object)
            let entry = try RosterEntry.decode(frame.frame.body)
            guard frame.frame.signer == entry.signer else { throw failure(position, "its frame and its entry name different signers") }
            return (frame, entry)
        } catch let error as ReplicationError {
            throw failure(position, error.message)
        } catch let error as MembershipError where error.code == .malformedRoster {
            throw failure(position, error.message)
        }
    }

    /// A member's box keys must take a sealed box: one that cannot (a low-order point) would make
    /// every later epoch — and so every revocation — impossible to start.
    private static func checkUsable(_ device: DevicePublicKeys, at position: UInt64) throws {
        let probe = try SecretBytes(zeroedCount: 32)
        for key in [device.syncBox, device.vaultBox] {
            guard (try? BoxKeyPair.seal(probe, to: key)) != nil else { throw failure(position, "device \(device.id)'s box keys are not usable keys") }
        }
    }

    static func failure(_ position: UInt64, _ rule: String) -> MembershipError {
        MembershipError(.rosterDoesNotVerify, "The roster does not verify at entry \(position): \(rule).")
    }
}
