import FuzzSupport
import Membership
import Replication
import SecretTrack
import Sodium

/// The decoders of devices as principals (docs/devices.md), on bytes as a remote, a file or a
/// user hands them over. The first byte picks one:
///
/// - 0: a signed frame (`SignedFrame.parse`), and its verification under a fixed key;
/// - 1: a roster entry (`RosterEntry.decode`), which must encode back to exactly itself;
/// - 2: a join request's body (`JoinRequest.decode`), likewise;
/// - 3: a device key file (`DeviceKeys(decoding:)`), which must encode back to itself, and its
///   sealed halves opened under a fixed key;
/// - 4: a typed recovery key (`RecoveryKey(parsing:)`);
/// - 6: a roster object name (`RosterReader.position`), which must name its position back;
/// - 7: a received secret body's header (`BodySeal.looksSealed`, `BodySeal.epoch`);
/// - 8: a recovery attestation (`RecoveryAttestation.verifies`, `currentAuthorityEntry`);
/// - 9: the epoch keys a roster entry boxes (`EpochKeys.open` as each recipient, `matches`);
/// - otherwise (5 in the seeds): a roster, as length-prefixed entry bodies from its genesis, each framed and
///   signed here with the fixed key (so the fuzzer reaches the roster's rules, not only its
///   signature check) and verified in turn (`RosterState`), then the last few as racing
///   candidates for the next position.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMembership(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    switch input.byte() {
    case 0:
        if let received = try? SignedFrame.parse(input.rest()) {
            _ = received.verifies(at: place, publicKey: key.publicKey)
        }
    case 1:
        let bytes = input.rest()
        if let entry = try? RosterEntry.decode(bytes) {
            FuzzFixtures.require(entry.encoded == bytes, "a decoded roster entry encodes to other bytes")
        }
    case 2:
        let bytes = input.rest()
        if let request = try? JoinRequest.decode(bytes) {
            FuzzFixtures.require(request.encoded == bytes, "a decoded join request encodes to other bytes")
        }
    case 3:
        if let file = try? SecretBytes(copying: input.rest()), let keys = try? DeviceKeys(decoding: file) {
            FuzzFixtures.require((try? keys.encoded()) == file, "a decoded device key file encodes to other bytes")
            _ = try? keys.rosterKey(deviceKey: FuzzFixtures.transportKey)
            _ = try? keys.vaultBox(deviceKey: FuzzFixtures.transportKey)
        }
    case 4:
        if let text = try? SecretBytes(copying: input.rest()), let key = try? RecoveryKey(parsing: text) {
            FuzzFixtures.require((try? RecoveryKey(parsing: key.printable())) != nil, "a recovery key does not read back from its own printable form")
        }
    case 6:
        // An object name from a listing: a position, and one that names its own position back.
        let name = String(decoding: input.rest(), as: UTF8.self)
        if let position = RosterReader.position(of: name) {
            FuzzFixtures.require(RosterReader.position(of: RosterEntry.objectName(position)) == position, "a position does not name itself back")
        }
    case 7:
        // A received secret body: its epoch header and its shape, never trusted further.
        let payload = input.rest()
        if BodySeal.looksSealed(payload), payload.first == 0x43, payload.dropFirst().first == 0x45 {
            FuzzFixtures.require(BodySeal.epoch(of: payload) != nil, "a body sealed in an epoch has no epoch")
        }
    case 8:
        // A recovery attestation under the fixed key, then as the authority's newest entry.
        let object = input.field(), rest = input.rest()
        _ = RecoveryAttestation.verifies(object, publicKey: key.publicKey, vaultID: place.vaultID, genesis: zero, position: 0, entryHash: zero)
        _ = try? RecoveryAttestation.currentAuthorityEntry(in: [object, rest])
    case 9:
        // The epoch keys an entry boxes, opened with fixed box keys as each named recipient.
        guard let entry = try? RosterEntry.decode(input.rest()) else { return 0 }
        let keys = entry.change.keys
        for box in keys.boxes.prefix(4) {
            if let opened = try? EpochKeys.open(keys, as: box.recipient, syncBox: boxKey, vaultBox: boxKey) {
                _ = try? EpochKeys.matches(opened, keys)
            }
        }
    default:
        var bodies: [[UInt8]] = []
        while !input.isEmpty && bodies.count < 16 { bodies.append(input.field()) }
        guard let first = bodies.first, case .genesis(let vaultID, _, _, _)? = (try? RosterEntry.decode(first))?.change else { return 0 }
        let genesis = framed(first, vaultID: vaultID, genesis: zero)
        guard var state = try? RosterState(genesis: genesis, pinned: nil) else { return 0 }
        let objects = bodies.dropFirst().map { framed($0, vaultID: vaultID, genesis: state.genesis) }
        for object in objects {
            guard (try? state.append(object)) != nil else { break }
        }
        _ = try? state.advanced(byOneOf: Array(objects.suffix(3)))
    }
    return 0
}

/// Fixed, public test material: enough to reach the code behind the parsers.
private let key = FuzzFixtures.signingKey
private let boxKey = try! BoxKeyPair(seed: try! SecretBytes(copying: [UInt8](repeating: 9, count: BoxKeyPair.seedCount)))
private let zero = [UInt8](repeating: 0, count: SignedFrame.hashCount)
private let place = SignedFrame.Place(vaultID: "6d1f7c1e-4b8a-4f0e-9a51-1b2c3d4e5f60", genesis: zero, objectName: "roster/1.entry")

/// An entry body framed as its signer would, signed with the fixed key.
private func framed(_ body: [UInt8], vaultID: String, genesis: [UInt8]) -> [UInt8] {
    let entry = try? RosterEntry.decode(body)
    let position = entry?.position ?? 0
    return SignedFrame(signer: entry?.signer ?? "", epoch: 1, rosterLength: position, rosterHead: zero, previous: zero, body: body)
        .signed(by: key, at: SignedFrame.Place(vaultID: vaultID, genesis: genesis, objectName: RosterEntry.objectName(position)))
}
