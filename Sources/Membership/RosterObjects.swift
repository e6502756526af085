import Replication
import Sodium

/// Roster entries as objects: an entry in a frame signed by its signer's roster key (docs/devices.md,
/// "The roster"). The frame's epoch is the one current before the entry; a genesis is signed for
/// an all-zero genesis hash (there is none before it).
public enum RosterObjects {
    private static let zero = [UInt8](repeating: 0, count: SignedFrame.hashCount)

    /// The genesis of a new vault: `creator` its first member, `authority` the recovery key's
    /// public keys, epoch 1 boxed to both.
    public static func genesis(vaultID: String, creator: DevicePublicKeys, authority: RosterChange.Authority, keys: EpochKeyBoxes,
                               rosterKey: SigningKeyPair) -> [UInt8] {
        let entry = RosterEntry(position: 0, previous: zero, signer: creator.id,
                                change: .genesis(vaultID: vaultID, creator: creator, recovery: authority, keys: keys))
        let frame = SignedFrame(signer: creator.id, epoch: 0, rosterLength: 0, rosterHead: zero, previous: zero, body: entry.encoded)
        return frame.signed(by: rosterKey, at: SignedFrame.Place(vaultID: vaultID, genesis: zero, objectName: RosterEntry.objectName(0)))
    }

    /// `change` as the entry after `roster`'s newest, signed by `signer` (the empty id: the
    /// recovery authority) with `key`.
    public static func next(_ change: RosterChange, after roster: RosterState, signer: String, key: SigningKeyPair) -> [UInt8] {
        let entry = RosterEntry(position: roster.length, previous: roster.head, signer: signer, change: change)
        let frame = SignedFrame(signer: signer, epoch: roster.epoch, rosterLength: roster.length, rosterHead: roster.head, previous: zero, body: entry.encoded)
        return frame.signed(by: key, at: SignedFrame.Place(vaultID: roster.vaultID, genesis: roster.genesis, objectName: RosterEntry.objectName(roster.length)))
    }

    /// The entry an object holds, once its roster has verified it.
    public static func entry(of object: [UInt8]) throws -> RosterEntry {
        try RosterEntry.decode(try SignedFrame.parse(object).frame.body)
    }
}
