import FuzzSupport
import Membership
import Replication
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
/// - otherwise: a roster, as length-prefixed objects from its genesis (`RosterState`), every
///   entry verified in turn, then the last few as racing candidates for the next position.
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
    default:
        var objects: [[UInt8]] = []
        while !input.isEmpty && objects.count < 16 { objects.append(input.field()) }
        guard let genesis = objects.first, var state = try? RosterState(genesis: genesis, pinned: nil) else { return 0 }
        for object in objects.dropFirst() {
            guard (try? state.append(object)) != nil else { break }
        }
        _ = try? state.advanced(byOneOf: Array(objects.suffix(3)))
    }
    return 0
}

/// Fixed, public test material: enough to reach the code behind the parsers.
private let key = try! SigningKeyPair(seed: try! SecretBytes(copying: [UInt8](repeating: 7, count: SigningKeyPair.seedCount)))
private let place = SignedFrame.Place(vaultID: "6d1f7c1e-4b8a-4f0e-9a51-1b2c3d4e5f60", genesis: [UInt8](repeating: 0, count: 32), objectName: "roster/1.entry")
