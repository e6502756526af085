import FoundationEssentials
import Membership
import Replication
import Sodium

/// A member's side of joining by approval (docs/devices.md, "Joining by approval").
extension Vault {
    /// The join requests on the remote that verify, for this vault's history, and have not
    /// expired; requests of devices already added are not listed.
    public func joinRequests() throws(VaultError) -> [JoinRequestSummary] {
        try VaultError.wrapping {
            let member = try boundMember()
            return try Self.requests(on: member.remote, roster: member.roster, keys: try deviceKeys(), deviceID: deviceID).map(\.summary)
        }
    }

    /// Approves the pending request whose verification code is `code`: appends the `add` entry
    /// that makes it a member and boxes it the current epoch's keys, removes the request, and
    /// returns it with the confirmation code to type on the joining device. Needs the vault
    /// unlocked (the roster key and the vault key).
    public func approveJoin(code: String) throws(VaultError) -> (request: JoinRequestSummary, confirmation: String) {
        try VaultError.wrapping {
            try directory.withExclusiveLock {
                guard secrets.isUnlocked else {
                    throw VaultError(.locked, "Approving a device boxes the vault key to it, which needs the vault unlocked.", hint: "Unlock it with its passphrase or key file.")
                }
                let keys = try deviceKeys()
                let deviceKey = try secrets.deviceKey()
                var member = try boundMember()
                for _ in 0..<8 {
                    let request = try Self.request(matching: code, on: member.remote, roster: member.roster, keys: keys, deviceID: deviceID)
                    let epoch = try Self.currentEpochKeys(in: member.objects, roster: member.roster, recipient: deviceID, syncBox: keys.syncBox,
                                                          vaultBox: try keys.vaultBox(deviceKey: deviceKey))
                    let joining = request.request.device
                    let sealedName = try DeviceName.seal(request.summary.name ?? "device", id: joining.id, transportKey: epoch.transport)
                    let device = DevicePublicKeys(id: joining.id, signing: joining.signing, roster: joining.roster, syncBox: joining.syncBox,
                                                  vaultBox: joining.vaultBox, sealedName: sealedName)
                    let boxes = try epoch.boxes(to: [.init(id: joining.id, syncBox: joining.syncBox, vaultBox: joining.vaultBox)])
                    let object = RosterObjects.next(.add(device: device, request: request.hash, keys: boxes), after: member.roster, signer: deviceID,
                                                    key: try keys.rosterKey(deviceKey: deviceKey))
                    if let next = try Self.append(object, to: member.roster, remote: member.remote) {
                        try RosterCache.save(member.objects + [object], in: directory)
                        try? member.remote.delete(JoinRequest.objectName(joining.id))
                        _ = next
                        return (request.summary, JoinCode.confirmation(genesis: member.roster.genesis, addEntry: RosterEntry.hash(ofObject: object)))
                    }
                    // Another member appended first (perhaps this very approval): again on the roster that holds.
                    member = try boundMember()
                }
                throw VaultError(.conflict, "The roster kept changing while this device approved the request.", hint: "Try again.")
            }
        }
    }

    /// Removes the pending request whose verification code is `code`; returns it.
    public func rejectJoin(code: String) throws(VaultError) -> JoinRequestSummary {
        try VaultError.wrapping {
            let member = try boundMember()
            let request = try Self.request(matching: code, on: member.remote, roster: member.roster, keys: try deviceKeys(), deviceID: deviceID)
            try member.remote.delete(JoinRequest.objectName(request.summary.device))
            return request.summary
        }
    }

    /// The bound remote and the roster verified on it, for a device that is a member.
    func boundMember() throws -> (remote: any Remote, roster: RosterState, objects: [[UInt8]]) {
        guard let binding = try RemoteBinding.load(from: directory) else {
            throw VaultError(.noRemote, "This vault has no remote.", hint: "Set one with: credctl remote set DIR")
        }
        let remote = try binding.remote()
        let roster = try verifiedRoster(remote: remote, genesis: try binding.pinnedGenesis())
        if roster.state.revoked[deviceID] != nil { throw VaultError(.revoked, "This device was revoked from the vault.") }
        guard roster.state.members[deviceID] != nil else { throw VaultError(.conflict, "The remote's roster does not name this device as a member.") }
        return (remote, roster.state, roster.objects)
    }

    private struct Found {
        let request: JoinRequest
        let hash: [UInt8]
        let summary: JoinRequestSummary
    }

    private static func requests(on remote: any Remote, roster: RosterState, keys: DeviceKeys, deviceID: String) throws -> [Found] {
        let now = UInt64(HybridLogicalClock.wallMilliseconds() / 1_000)
        var found: [Found] = []
        for name in try remote.list(prefix: "requests/") where name.hasSuffix(".request") {
            guard let bytes = try remote.get(name), bytes.count <= 1 << 20,
                  let request = try? JoinRequest.read(bytes, objectName: name, vaultID: roster.vaultID, genesis: roster.genesis, now: now),
                  roster.members[request.device.id] == nil, roster.revoked[request.device.id] == nil else { continue }
            let shown = try? request.name(as: deviceID, syncBox: keys.syncBox)
            found.append(Found(request: request, hash: GenericHash.hash(bytes),
                               summary: JoinRequestSummary(device: request.device.id, name: shown, code: request.verificationCode, expires: Int64(request.expires))))
        }
        return found
    }

    private static func request(matching code: String, on remote: any Remote, roster: RosterState, keys: DeviceKeys, deviceID: String) throws -> Found {
        let matching = try requests(on: remote, roster: roster, keys: keys, deviceID: deviceID).filter { JoinCode.matches(code, $0.summary.code) }
        guard let request = matching.first else {
            throw VaultError(.notFound, "No pending join request has the code \(code).",
                             hint: "List them with: credctl device requests (a request expires an hour after it was made)")
        }
        guard matching.count == 1 else {
            throw VaultError(.conflict, "Two pending join requests show the code \(code): someone is imitating a device.", hint: "Reject them both and ask the device to join again.")
        }
        return request
    }
}
