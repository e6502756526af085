import ConfigTrack
import Membership
import Replication
import Sodium

/// This device as a principal of its vault (docs/devices.md): its own keys, the roster it has
/// verified, and the seal every zone object it writes or reads goes through.
extension Vault {
    /// This device's keys, made on first need (which needs the vault unlocked: their locked
    /// halves are sealed under the device key).
    func deviceKeys() throws -> DeviceKeys {
        if let keys = try DeviceKeyFile.load(from: directory) {
            guard keys.id == deviceID else {
                throw VaultError(.corrupt, "This vault's device-keys file belongs to another device (\(keys.id)).", hint: "Restore the vault's own device-keys file from a backup.")
            }
            return keys
        }
        // A device of a vault has its keys for good: new ones would not be the roster's.
        if let binding = try RemoteBinding.load(from: directory), binding.format == RemoteBinding.format {
            throw VaultError(.corrupt, "This device's key file (device-keys) is missing from the vault directory.",
                             hint: "Restore it from a backup, or join the vault again as a new device.")
        }
        guard secrets.isUnlocked else {
            throw VaultError(.locked, "This device has no keys of its own yet; making them needs the vault unlocked.", hint: "Unlock it with its passphrase or key file.")
        }
        return try DeviceKeyFile.create(in: directory, id: deviceID, deviceKey: try secrets.deviceKey())
    }

    /// The roster verified from `genesis` with every entry the remote holds past what this
    /// device verified before; what it verifies is kept for the next time.
    func verifiedRoster(remote: any Remote, genesis: [UInt8]) throws -> (state: RosterState, objects: [[UInt8]]) {
        let known = try RosterCache.load(from: directory)
        let read = try RosterReader.read(from: remote, pinned: genesis, known: known)
        if read.objects != known { try RosterCache.save(read.objects, in: directory) }
        return read
    }

    /// The seal of this device's zone objects under `roster`, with the transport keys `binding` holds.
    func objectSeal(binding: RemoteBinding, roster: RosterState) throws -> SignedSeal {
        SignedSeal(vaultID: roster.vaultID, roster: roster, writerID: deviceID, signing: try deviceKeys().signing, transportKeys: try binding.keys())
    }

    /// Appends `object` at the roster's next position: create-only, so of two devices appending
    /// at once one gets the position and the other hears it is taken (nil) and tries again on
    /// the roster that holds. Returns the roster with it.
    static func append(_ object: [UInt8], to roster: RosterState, remote: any Remote) throws -> RosterState? {
        // Verified first: an entry every other member would refuse is never written.
        var next = roster
        try next.append(object)
        do {
            _ = try remote.createOnly(RosterEntry.objectName(roster.length), bytes: object)
        } catch let error as ReplicationError where error.code == .nameConflict {
            // Another member's entry holds the position, or junk that verifies as nothing took
            // the plain name: then this entry goes beside it, where readers find it too.
            var probe = roster
            guard let taken = try remote.get(RosterEntry.objectName(roster.length)), (try? probe.append(taken)) == nil else { return nil }
            _ = try remote.createOnly(RosterReader.alternateName(roster.length, object: object), bytes: object)
        }
        return next
    }

    /// The keys of the roster's current epoch, opened by `recipient` from the newest entry that
    /// boxed them to it.
    static func currentEpochKeys(in objects: [[UInt8]], roster: RosterState, recipient: String, syncBox: BoxKeyPair, vaultBox: BoxKeyPair?) throws -> EpochKeys {
        for object in objects.reversed() {
            let keys = try RosterObjects.entry(of: object).change.keys
            guard keys.epoch == roster.epoch, keys.boxes.contains(where: { $0.recipient == recipient }) else { continue }
            return try EpochKeys.open(keys, as: recipient, syncBox: syncBox, vaultBox: vaultBox)
        }
        throw VaultError(.corrupt, "The roster holds no box of epoch \(roster.epoch) for \(recipient.isEmpty ? "the recovery key" : "this device").")
    }
}
