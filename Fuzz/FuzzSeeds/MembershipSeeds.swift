import FuzzSupport
import Membership
import Replication
import Sodium

/// Seeds for FuzzMembership: a real roster (a genesis, a device added by the recovery authority,
/// a rotation with its proof), its entries alone, a join request as an object and as a body, a
/// device key file and a recovery key, in the harness's layout.
enum MembershipSeeds {
    static let vaultID = "6d1f7c1e-4b8a-4f0e-9a51-1b2c3d4e5f60"
    static let zero = [UInt8](repeating: 0, count: SignedFrame.hashCount)

    static func write(_ seeds: SeedWriter) throws {
        let deviceKey = try SecretBytes.random(count: SealedBox.keyCount)
        let creator = try DeviceKeys.generate(id: FuzzFixtures.devices[0], deviceKey: deviceKey)
        let joiner = try DeviceKeys.generate(id: FuzzFixtures.devices[1], deviceKey: deviceKey)
        let recovery = try RecoveryKey.generate()
        let authority = try recovery.authority()
        func recipient(_ keys: DeviceKeys) -> EpochKeys.Recipient { EpochKeys.Recipient(id: keys.id, syncBox: keys.syncBox.publicKey, vaultBox: keys.vaultBoxPublicKey) }
        let authorityRecipient = EpochKeys.Recipient(id: EpochKeyBoxes.recoveryRecipient, syncBox: authority.box.publicKey, vaultBox: authority.box.publicKey)
        let first = try EpochKeys.generate(epoch: 1), second = try EpochKeys.generate(epoch: 2)

        var objects: [[UInt8]] = []
        var entries: [RosterEntry] = []
        func append(_ change: RosterChange, signer: String, key: SigningKeyPair) {
            let position = UInt64(objects.count)
            let previous = objects.last.map(RosterEntry.hash(ofObject:)) ?? zero
            let entry = RosterEntry(position: position, previous: previous, signer: signer, change: change)
            let genesis = objects.first.map(RosterEntry.hash(ofObject:)) ?? zero
            entries.append(entry)
            objects.append(SignedFrame(signer: signer, epoch: 1, rosterLength: position, rosterHead: previous, previous: zero, body: entry.encoded)
                .signed(by: key, at: SignedFrame.Place(vaultID: vaultID, genesis: genesis, objectName: RosterEntry.objectName(position))))
        }
        let creatorRoster = try creator.rosterKey(deviceKey: deviceKey)
        append(.genesis(vaultID: vaultID, creator: creator.publicKeys(sealedName: [1, 2, 3]),
                        recovery: RosterChange.Authority(signing: authority.signing.publicKey, box: authority.box.publicKey),
                        keys: try first.boxes(to: [authorityRecipient, recipient(creator)])), signer: creator.id, key: creatorRoster)
        append(.add(device: joiner.publicKeys(sealedName: [4, 5]), request: zero, keys: try first.boxes(to: [recipient(joiner)])),
               signer: EpochKeyBoxes.recoveryRecipient, key: authority.signing)
        let previous = RosterChange.PreviousKeys(transport: [1], vault: [2])
        let unproved = RosterEntry(position: 2, previous: zero, signer: creator.id,
                                   change: .rotate(keys: try second.boxes(to: [authorityRecipient, recipient(creator), recipient(joiner)]), previous: previous))
        let proof = try EpochKeys.proof(of: unproved, previousVault: first.vault!)
        append(.rotate(keys: unproved.change.keys.proved(proof), previous: previous), signer: creator.id, key: creatorRoster)

        seeds.write("FuzzMembership") { writer in
            writer.byte(5)
            for object in objects { writer.field(object) }
        }
        for entry in entries { seeds.write("FuzzMembership", [1] + entry.encoded) }
        let genesis = RosterEntry.hash(ofObject: objects[0])
        let request = try JoinRequest.object(keys: try DeviceKeys.generate(id: FuzzFixtures.devices[2], deviceKey: deviceKey), name: "laptop",
                                             members: [creator.id: creator.syncBox.publicKey, joiner.id: joiner.syncBox.publicKey],
                                             vaultID: vaultID, genesis: genesis, now: 1_800_000_000)
        seeds.write("FuzzMembership", [0] + request)
        seeds.write("FuzzMembership", [2] + (try SignedFrame.parse(request).frame.body))
        seeds.write("FuzzMembership", [3] + (try joiner.encoded().withUnsafeBytes { Array($0) }))
        seeds.write("FuzzMembership", [4] + (try recovery.printable().withUnsafeBytes { Array($0) }))
    }
}
