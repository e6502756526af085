import FuzzSupport
import Membership
import Replication
import Sodium

/// Seeds for FuzzMembership: a real roster (a genesis, a device added by the recovery authority,
/// a rotation with its proof) as signed objects and as entries, a roster whose every member and
/// recovery authority signs with the harness's fixed key (as bodies the harness signs), a join
/// request as an object and as a body, a device key file and a recovery key, in the harness's
/// layout.
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

        for object in objects { seeds.write("FuzzMembership", [0] + object) }
        for entry in entries { seeds.write("FuzzMembership", [1] + entry.encoded) }
        try writeFixedKeyRoster(seeds)
        let genesis = RosterEntry.hash(ofObject: objects[0])
        let request = try JoinRequest.object(keys: try DeviceKeys.generate(id: FuzzFixtures.devices[2], deviceKey: deviceKey), name: "laptop",
                                             members: [creator.id: creator.syncBox.publicKey, joiner.id: joiner.syncBox.publicKey],
                                             vaultID: vaultID, genesis: genesis, now: 1_800_000_000)
        seeds.write("FuzzMembership", [0] + request)
        seeds.write("FuzzMembership", [2] + (try SignedFrame.parse(request).frame.body))
        seeds.write("FuzzMembership", [3] + (try joiner.encoded().withUnsafeBytes { Array($0) }))
        seeds.write("FuzzMembership", [4] + (try recovery.printable().withUnsafeBytes { Array($0) }))
        for name in ["roster/12.entry", "roster/3.0123abcd4567ef89.entry", "roster/3.sync-conflict-20261201-000000-X.entry", "roster/007.entry"] {
            seeds.write("FuzzMembership", [6] + Array(name.utf8))
        }
        seeds.write("FuzzMembership", [7, 0x43, 0x45, 0, 0, 0, 2, 0x43, 0x56, SealedBox.formatVersion, 11] + [UInt8](repeating: 0, count: SealedBox.overhead))
        seeds.write("FuzzMembership") { writer in
            writer.byte(8)
            writer.field(RecoveryAttestation.object(signing: authority.signing, vaultID: vaultID, genesis: genesis, position: 1, entryHash: RosterEntry.hash(ofObject: objects[1])))
            writer.append(objects[1])
        }
        for entry in entries { seeds.write("FuzzMembership", [9] + entry.encoded) }
    }

    /// Genesis, an approval, a recovery join, a revocation and a rotation, every signer's roster
    /// key the harness's fixed key: entry bodies, in the harness's roster layout (selector 5).
    private static func writeFixedKeyRoster(_ seeds: SeedWriter) throws {
        let signing = FuzzFixtures.signingKey.publicKey
        let ids = [FuzzFixtures.devices[0], FuzzFixtures.devices[1], "d0f4a5e2-3333-4c6b-9f00-000000000003"]
        var recipients: [String: EpochKeys.Recipient] = [:]
        var devices: [String: DevicePublicKeys] = [:]
        for id in ids + [EpochKeyBoxes.recoveryRecipient] {
            let sync = try BoxKeyPair.generate(), vault = try BoxKeyPair.generate()
            recipients[id] = EpochKeys.Recipient(id: id, syncBox: sync.publicKey, vaultBox: vault.publicKey)
            devices[id] = DevicePublicKeys(id: id, signing: signing, roster: signing, syncBox: sync.publicKey, vaultBox: vault.publicKey, sealedName: [1])
        }
        func boxes(_ epoch: UInt32, _ to: [String]) throws -> EpochKeyBoxes { try EpochKeys.generate(epoch: epoch).boxes(to: to.map { recipients[$0]! }) }
        let previous = RosterChange.PreviousKeys(transport: [1], vault: [2])
        let changes: [(String, RosterChange)] = [
            (ids[0], .genesis(vaultID: vaultID, creator: devices[ids[0]]!, recovery: RosterChange.Authority(signing: signing, box: recipients[""]!.syncBox),
                              keys: try boxes(1, ["", ids[0]]))),
            (ids[0], .add(device: devices[ids[1]]!, request: [UInt8](repeating: 9, count: SignedFrame.hashCount), keys: try boxes(1, [ids[1]]))),
            ("", .add(device: devices[ids[2]]!, request: zero, keys: try boxes(1, [ids[2]]))),
            (ids[0], .revoke(devices: [RosterChange.Revocation(device: ids[1], cutoffs: [RosterChange.Cutoff(zone: "config", sequence: 3, batchHash: zero)])],
                             keys: try boxes(2, ["", ids[0], ids[2]]), previous: previous, recovery: nil)),
            (ids[2], .rotate(keys: try boxes(3, ["", ids[0], ids[2]]), previous: previous)),
        ]
        var bodies: [[UInt8]] = []
        for (position, (signer, change)) in changes.enumerated() {
            // Each names the hash of the one before as the harness frames it.
            let before = bodies.last.map { framedHash($0, position: UInt64(position - 1), genesis: bodies.first!) } ?? zero
            bodies.append(RosterEntry(position: UInt64(position), previous: before, signer: signer, change: change).encoded)
        }
        seeds.write("FuzzMembership") { writer in
            writer.byte(5)
            for body in bodies { writer.field(body) }
        }
    }

    /// The hash of `body` as FuzzMembership frames and signs it (Ed25519 is deterministic).
    private static func framedHash(_ body: [UInt8], position: UInt64, genesis: [UInt8]) -> [UInt8] {
        let signer = (try? RosterEntry.decode(body))?.signer ?? ""
        let genesisHash = position == 0 ? zero : framedHash(genesis, position: 0, genesis: genesis)
        let object = SignedFrame(signer: signer, epoch: 1, rosterLength: position, rosterHead: zero, previous: zero, body: body)
            .signed(by: FuzzFixtures.signingKey, at: SignedFrame.Place(vaultID: vaultID, genesis: genesisHash, objectName: RosterEntry.objectName(position)))
        return RosterEntry.hash(ofObject: object)
    }
}
