import Membership
import Replication
import Sodium

/// A member's side of joining by approval (docs/devices.md, "Joining by approval").
extension Vault {
    /// The join requests on the remote that verify, for this vault's history, and have not
    /// expired: pending ones, and ones approved whose device has not confirmed yet (the joining
    /// device removes its request once joined).
    public func joinRequests() throws(VaultError) -> [JoinRequestSummary] {
        try VaultError.wrapping {
            let member = try boundMember()
            return try Self.requests(on: member.remote, roster: member.roster, objects: member.objects, keys: try deviceKeys(), deviceID: deviceID).map(\.summary)
        }
    }

    /// Approves the pending request whose verification code is `code`: appends the `add` entry
    /// that makes it a member and boxes it the current epoch's keys, and returns it with the
    /// confirmation code to type on the joining device. A request approved already (an approval
    /// cut short before its code was shown) gives that approval's code again, appending nothing.
    /// Needs the vault unlocked (the roster key and the vault key).
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
                    let request = try Self.request(matching: code, on: member.remote, roster: member.roster, objects: member.objects, keys: keys, deviceID: deviceID)
                    if let approval = try Self.approval(of: request.hash, in: member.objects) {
                        return (request.summary, JoinCode.confirmation(genesis: member.roster.genesis, addEntry: RosterEntry.hash(ofObject: approval)))
                    }
                    let epoch = try Self.currentEpochKeys(in: member.objects, roster: member.roster, recipient: deviceID, syncBox: keys.syncBox,
                                                          vaultBox: try keys.vaultBox(deviceKey: deviceKey))
                    let joining = request.request.device
                    let sealedName = try DeviceName.seal(request.summary.name ?? "device", id: joining.id, transportKey: epoch.transport)
                    let device = DevicePublicKeys(id: joining.id, signing: joining.signing, roster: joining.roster, syncBox: joining.syncBox,
                                                  vaultBox: joining.vaultBox, sealedName: sealedName)
                    let boxes = try epoch.boxes(to: [.init(id: joining.id, syncBox: joining.syncBox, vaultBox: joining.vaultBox)])
                    let object = RosterObjects.next(.add(device: device, request: request.hash, keys: boxes), after: member.roster, signer: deviceID,
                                                    key: try keys.rosterKey(deviceKey: deviceKey))
                    if try Self.append(object, to: member.roster, remote: member.remote) != nil {
                        try RosterCache.save(member.objects + [object], in: directory)
                        Failpoint.hit("approve.after-entry")
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
            let request = try Self.request(matching: code, on: member.remote, roster: member.roster, objects: member.objects, keys: try deviceKeys(), deviceID: deviceID)
            guard !request.summary.approved else {
                throw VaultError(.conflict, "The request with code \(code) was approved already; that device is a member.", hint: "Revoke it with: credctl device revoke \(request.summary.device)")
            }
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

    /// The `add` entry that approved the request whose object hashes to `hash`, if there is one.
    private static func approval(of hash: [UInt8], in objects: [[UInt8]]) throws -> [UInt8]? {
        try objects.first { object in
            if case .add(_, let request, _) = try RosterObjects.entry(of: object).change { return request == hash }
            return false
        }
    }

    private static func requests(on remote: any Remote, roster: RosterState, objects: [[UInt8]], keys: DeviceKeys, deviceID: String) throws -> [Found] {
        let now = UInt64(HybridLogicalClock.wallMilliseconds() / 1_000)
        var found: [Found] = []
        for name in try remote.list(prefix: "requests/") where name.hasSuffix(".request") {
            guard let bytes = try remote.get(name), bytes.count <= 1 << 20,
                  let request = try? JoinRequest.read(bytes, objectName: name, vaultID: roster.vaultID, genesis: roster.genesis, now: now),
                  roster.revoked[request.device.id] == nil else { continue }
            let hash = GenericHash.hash(bytes)
            // A member already: listed only while the approval of this very request waits for its confirmation.
            let approved = roster.members[request.device.id] != nil
            if approved, try approval(of: hash, in: objects) == nil { continue }
            let shown = try? request.name(as: deviceID, syncBox: keys.syncBox)
            found.append(Found(request: request, hash: hash,
                               summary: JoinRequestSummary(device: request.device.id, name: shown, code: request.verificationCode, expires: Int64(request.expires),
                                                           approved: approved)))
        }
        return found
    }

    private static func request(matching code: String, on remote: any Remote, roster: RosterState, objects: [[UInt8]], keys: DeviceKeys, deviceID: String) throws -> Found {
        let matching = try requests(on: remote, roster: roster, objects: objects, keys: keys, deviceID: deviceID).filter { JoinCode.matches(code, $0.summary.code) }
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
