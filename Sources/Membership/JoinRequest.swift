import Replication
import Sodium

/// A joining device's request, `requests/<device id>.request` (docs/devices.md, "Joining by
/// approval"): its public keys, the genesis it verified, when the request expires, and its name
/// sealed to each member's sync box key — in a frame signed with its own new signing key.
///
/// ```
/// request := "CQ" | u8 version | device (its name empty) | hash[32] genesis | u64 expires (Unix seconds)
///            | u16 n | n × (string member, data name sealed to that member)
/// ```
public struct JoinRequest: Sendable, Equatable {
    public static let version: UInt8 = 1
    static let magic: [UInt8] = [0x43, 0x51]  // "CQ"
    /// How long a request may be approved.
    public static let lifetime: UInt64 = 3_600
    public static let maximumNameBytes = 128

    public struct SealedName: Sendable, Equatable {
        public let member: String
        public let sealed: [UInt8]
    }

    public let device: DevicePublicKeys
    public let genesis: [UInt8]
    public let expires: UInt64
    public let names: [SealedName]

    public static func objectName(_ device: String) -> String { "requests/\(device).request" }

    package var encoded: [UInt8] {
        var writer = ByteWriter()
        writer.fixed(Self.magic)
        writer.u8(Self.version)
        device.encode(into: &writer)
        writer.fixed(genesis)
        writer.u64(expires)
        writer.u16(UInt16(names.count))
        for name in names {
            writer.string(name.member)
            writer.data(name.sealed)
        }
        return writer.bytes
    }

    /// The request object of `keys`, named `name`, for the members whose sync box keys are given.
    public static func object(keys: DeviceKeys, name: String, members: [String: [UInt8]], vaultID: String, genesis: [UInt8], now: UInt64) throws -> [UInt8] {
        let nameBytes = try SecretBytes(utf8: name)
        guard (1...maximumNameBytes).contains(nameBytes.count) else { throw MembershipError(.joinRequest, "A device name has 1 to \(maximumNameBytes) bytes.") }
        let sealed = try members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map {
            SealedName(member: $0, sealed: try BoxKeyPair.seal(nameBytes, to: members[$0]!))
        }
        let request = JoinRequest(device: keys.publicKeys(sealedName: []), genesis: genesis, expires: now + lifetime, names: sealed)
        let frame = SignedFrame(signer: keys.id, epoch: 0, rosterLength: 0, rosterHead: genesis, previous: [UInt8](repeating: 0, count: SignedFrame.hashCount),
                                body: request.encoded)
        return frame.signed(by: keys.signing, at: SignedFrame.Place(vaultID: vaultID, genesis: genesis, objectName: objectName(keys.id)))
    }

    /// A request object read from the remote, verified: signed by the key it carries, for this
    /// vault's genesis, under its own name, and not expired.
    public static func read(_ object: [UInt8], objectName name: String, vaultID: String, genesis: [UInt8], now: UInt64) throws -> JoinRequest {
        let frame: SignedFrame.Received
        let request: JoinRequest
        do {
            frame = try SignedFrame.parse(object)
            request = try decode(frame.frame.body)
        } catch let error as ReplicationError {
            throw MembershipError(.joinRequest, "A join request is malformed: \(error.message)")
        }
        // The frame's other fields are what `object` writes: a request is made before the
        // device holds any epoch or has written anything.
        guard frame.frame.epoch == 0, frame.frame.rosterLength == 0, frame.frame.rosterHead == request.genesis,
              frame.frame.previous == [UInt8](repeating: 0, count: SignedFrame.hashCount) else {
            throw MembershipError(.joinRequest, "A join request's frame is not a request's.")
        }
        guard frame.frame.signer == request.device.id, name == objectName(request.device.id) else {
            throw MembershipError(.joinRequest, "A join request is not under its device's name.")
        }
        guard request.genesis == genesis else { throw MembershipError(.joinRequest, "A join request was made for another vault's history.") }
        guard frame.verifies(at: SignedFrame.Place(vaultID: vaultID, genesis: genesis, objectName: name), publicKey: request.device.signing) else {
            throw MembershipError(.joinRequest, "A join request's signature does not verify.")
        }
        guard now <= request.expires else { throw MembershipError(.joinRequest, "A join request has expired.") }
        // Ten minutes of clock difference between the devices are allowed.
        guard request.expires <= now + lifetime + 600 else {
            throw MembershipError(.joinRequest, "A join request expires later than a request lives: the clocks of the two devices differ by more than ten minutes.")
        }
        return request
    }

    package static func decode(_ bytes: [UInt8]) throws -> JoinRequest {
        var reader = ByteReader(bytes)
        do {
            guard try reader.fixed(2) == magic, try reader.u8() == version else { throw MembershipError(.joinRequest, "A join request is not of this format.") }
            let device = try DevicePublicKeys.decode(from: &reader)
            let genesis = try reader.fixed(SignedFrame.hashCount)
            let expires = try reader.u64()
            let count = Int(try reader.u16())
            guard count <= RosterState.maximumMembers else { throw MembershipError(.joinRequest, "A join request names \(count) members.") }
            var names: [SealedName] = []
            for _ in 0..<count {
                let member = try reader.string(maximum: 128)
                guard VersionContext.isDeviceName(member), names.last.map({ $0.member.utf8.lexicographicallyPrecedes(member.utf8) }) ?? true else {
                    throw MembershipError(.joinRequest, "A join request's members are not in order.")
                }
                names.append(SealedName(member: member, sealed: try reader.data(maximum: maximumNameBytes + BoxKeyPair.overhead)))
            }
            guard reader.isAtEnd, device.sealedName.isEmpty else { throw MembershipError(.joinRequest, "A join request has bytes it should not.") }
            return JoinRequest(device: device, genesis: genesis, expires: expires, names: names)
        } catch is ByteReader.Truncated {
            throw MembershipError(.joinRequest, "A join request is cut short.")
        } catch let error as RosterFormatError {
            throw MembershipError(.joinRequest, "A join request is malformed: \(error.description).")
        }
    }

    /// The joining device's name, as sealed to `member`.
    public func name(as member: String, syncBox: BoxKeyPair) throws -> String {
        guard let sealed = names.first(where: { $0.member == member }) else { throw MembershipError(.joinRequest, "The join request's name is not sealed to this device.") }
        let name = try syncBox.open(sealed.sealed)
        return name.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The code the user compares on both devices.
    public var verificationCode: String { JoinCode.verification(genesis: genesis, request: encoded) }
}
