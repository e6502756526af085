import ConfigTrack
import Membership
import Replication
import SecretTrack

extension Vault {
    /// The vault's devices as the roster this device verified last gives them, in roster order
    /// (no remote is read: run sync first for the newest). Empty without a remote of format 2.
    public func rosterDevices() throws(VaultError) -> [DeviceSummary] {
        try VaultError.wrapping {
            guard let binding = try RemoteBinding.load(from: directory), binding.format == RemoteBinding.format else { return [] }
            let objects = try RosterCache.load(from: directory)
            guard let first = objects.first else { return [] }
            var roster = try RosterState(genesis: first, pinned: try binding.pinnedGenesis())
            for object in objects.dropFirst() { try roster.append(object) }
            let names = try Self.memberNames(roster: roster, binding: binding).merging(try chosenDeviceNames()) { _, chosen in chosen }
            func label(_ id: String) -> String { names[id].map { "\($0) (\(id))" } ?? id }
            var devices: [DeviceSummary] = []
            var revokedBy: [String: String] = [:], lastEpoch: [String: UInt32] = [:]
            for object in objects {
                let entry = try RosterObjects.entry(of: object)
                if case .revoke(let revoked, let keys, _, _) = entry.change {
                    for device in revoked {
                        revokedBy[device.device] = entry.signer
                        lastEpoch[device.device] = keys.epoch - 1
                    }
                }
            }
            let heard = try lastHeard()
            for object in objects {
                let entry = try RosterObjects.entry(of: object)
                let id: String, joined: String
                switch entry.change {
                case .genesis(_, let creator, _, _): (id, joined) = (creator.id, "created the vault")
                case .add(let device, _, _): (id, joined) = (device.id, entry.signer.isEmpty ? "recovery key" : "approved by \(label(entry.signer))")
                default: continue
                }
                let member = roster.members[id] != nil
                devices.append(DeviceSummary(id: id, name: names[id], state: member ? .member : .revoked, joined: joined,
                                             revokedBy: revokedBy[id].map(label), isThisDevice: id == deviceID,
                                             epoch: member ? roster.epoch : lastEpoch[id], lastHeardMilliseconds: heard[id]))
            }
            return devices
        }
    }

    /// Per device, when its newest change this device applied (in either zone) was made: its
    /// own hybrid clock, in milliseconds.
    func lastHeard() throws -> [String: UInt64] {
        let clocks = try ConfigZone(store: config).lastHeard().merging(try SecretZone(store: secrets).lastHeard(), uniquingKeysWith: max)
        return clocks.mapValues { $0 >> HybridLogicalClock.counterBits }
    }

    /// The newest epoch of the roster this device verified last.
    public var currentEpoch: UInt32? {
        guard let binding = try? RemoteBinding.load(from: directory), let keys = try? binding.keys() else { return nil }
        return keys.keys.max()
    }

    /// What a revoked device could read: every synced reference this device knows (live,
    /// deleted, kept as a conflict), never a value.
    public func exposedReferences() throws(VaultError) -> [String] {
        try VaultError.wrapping { try secrets.syncedReferences() }
    }
}
