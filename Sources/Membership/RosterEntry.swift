import Replication
import Sodium

/// One entry of the roster, `roster/<position>.entry`, in its canonical form (docs/devices.md,
/// "The roster"). The bytes here are the body of a signed frame; an entry's hash covers the whole
/// framed object, signature included, and the next entry names it.
///
/// ```
/// entry := "CR" | u8 version | u64 position | hash[32] previous | u8 kind | string signer | kind's body
/// ```
public struct RosterEntry: Sendable, Equatable {
    public static let version: UInt8 = 1
    static let magic: [UInt8] = [0x43, 0x52]  // "CR"
    /// Entries larger than this are refused before they are parsed.
    public static let maximumBytes = 1 << 20

    public let position: UInt64
    /// The hash of the entry before it (zeros for the genesis).
    public let previous: [UInt8]
    /// The member device that appended it, or the empty id for the recovery authority.
    public let signer: String
    public let change: RosterChange

    public init(position: UInt64, previous: [UInt8], signer: String, change: RosterChange) {
        self.position = position
        self.previous = previous
        self.signer = signer
        self.change = change
    }

    /// The object name of position `n`.
    public static func objectName(_ position: UInt64) -> String { "roster/\(position).entry" }

    /// The hash the next entry names: of the whole framed object.
    public static func hash(ofObject bytes: [UInt8]) -> [UInt8] {
        GenericHash.hash(bytes, domain: Array("credvault/v2/roster".utf8))
    }

    public var encoded: [UInt8] {
        var writer = ByteWriter()
        writer.fixed(Self.magic)
        writer.u8(Self.version)
        writer.u64(position)
        writer.fixed(previous)
        writer.u8(change.kind)
        writer.string(signer)
        switch change {
        case .genesis(let vaultID, let creator, let recovery, let keys):
            writer.string(vaultID)
            creator.encode(into: &writer)
            Self.encode(recovery, into: &writer)
            keys.encode(into: &writer)
        case .add(let device, let request, let keys):
            device.encode(into: &writer)
            writer.fixed(request)
            keys.encode(into: &writer)
        case .revoke(let devices, let keys, let previous, let recovery):
            writer.u16(UInt16(devices.count))
            for revocation in devices {
                writer.string(revocation.device)
                writer.u16(UInt16(revocation.cutoffs.count))
                for cutoff in revocation.cutoffs {
                    writer.string(cutoff.zone)
                    writer.u64(cutoff.sequence)
                    writer.fixed(cutoff.batchHash)
                }
            }
            keys.encode(into: &writer)
            Self.encode(previous, into: &writer)
            writer.u8(recovery == nil ? 0 : 1)
            if let recovery { Self.encode(recovery, into: &writer) }
        case .rotate(let keys, let previous):
            keys.encode(into: &writer)
            Self.encode(previous, into: &writer)
        case .recovery(let authority, let keys, let previous):
            Self.encode(authority, into: &writer)
            keys.encode(into: &writer)
            Self.encode(previous, into: &writer)
        }
        return writer.bytes
    }

    /// Reads an entry; anything that is not exactly one canonical entry is refused with the rule it broke.
    public static func decode(_ bytes: [UInt8]) throws -> RosterEntry {
        guard bytes.count <= maximumBytes else { throw MembershipError(.malformedRoster, "A roster entry is larger than \(maximumBytes) bytes.") }
        var reader = ByteReader(bytes)
        do {
            guard try reader.fixed(2) == magic else { throw RosterFormatError("it is not a roster entry") }
            let version = try reader.u8()
            guard version == Self.version else { throw RosterFormatError("it has version \(version); this build reads \(Self.version)") }
            let position = try reader.u64()
            let previous = try reader.fixed(SignedFrame.hashCount)
            let kind = try reader.u8()
            let signer = try reader.string(maximum: 128)
            guard signer == EpochKeyBoxes.recoveryRecipient || VersionContext.isDeviceName(signer) else { throw RosterFormatError("its signer is not a device id") }
            let change: RosterChange
            switch kind {
            case 0:
                change = .genesis(vaultID: try reader.string(maximum: 128), creator: try DevicePublicKeys.decode(from: &reader),
                                  recovery: try authority(from: &reader), keys: try EpochKeyBoxes.decode(from: &reader))
            case 1:
                change = .add(device: try DevicePublicKeys.decode(from: &reader), request: try reader.fixed(SignedFrame.hashCount),
                              keys: try EpochKeyBoxes.decode(from: &reader))
            case 2:
                let count = Int(try reader.u16())
                guard (1...RosterChange.maximumRevoked).contains(count) else { throw RosterFormatError("it revokes \(count) devices") }
                var devices: [RosterChange.Revocation] = []
                for _ in 0..<count {
                    let device = try reader.string(maximum: 128)
                    guard VersionContext.isDeviceName(device) else { throw RosterFormatError("a revoked device id is not a device id") }
                    guard devices.last.map({ $0.device.utf8.lexicographicallyPrecedes(device.utf8) }) ?? true else {
                        throw RosterFormatError("revoked devices are not in ascending order, or one repeats")
                    }
                    let zones = Int(try reader.u16())
                    guard zones <= RosterChange.maximumZones else { throw RosterFormatError("a revocation names \(zones) zones") }
                    var cutoffs: [RosterChange.Cutoff] = []
                    for _ in 0..<zones {
                        let cutoff = RosterChange.Cutoff(zone: try reader.string(maximum: 64), sequence: try reader.u64(), batchHash: try reader.fixed(SignedFrame.hashCount))
                        guard cutoffs.last.map({ $0.zone.utf8.lexicographicallyPrecedes(cutoff.zone.utf8) }) ?? true else {
                            throw RosterFormatError("a revocation's zones are not in ascending order, or one repeats")
                        }
                        cutoffs.append(cutoff)
                    }
                    devices.append(RosterChange.Revocation(device: device, cutoffs: cutoffs))
                }
                let keys = try EpochKeyBoxes.decode(from: &reader)
                let previousKeys = try previousKeys(from: &reader)
                let recovery: RosterChange.Authority?
                switch try reader.u8() {
                case 0: recovery = nil
                case 1: recovery = try authority(from: &reader)
                default: throw RosterFormatError("its recovery flag is neither 0 nor 1")
                }
                change = .revoke(devices: devices, keys: keys, previous: previousKeys, recovery: recovery)
            case 3:
                change = .rotate(keys: try EpochKeyBoxes.decode(from: &reader), previous: try previousKeys(from: &reader))
            case 4:
                change = .recovery(authority: try authority(from: &reader), keys: try EpochKeyBoxes.decode(from: &reader), previous: try previousKeys(from: &reader))
            default:
                throw RosterFormatError("its kind \(kind) is unknown")
            }
            // Every field has one form (fixed sizes, exact lengths, ordered lists, a 0/1 flag): an
            // entry read to its end is in canonical form (FuzzMembership checks the round trip).
            guard reader.isAtEnd else { throw RosterFormatError("it has bytes after its end") }
            return RosterEntry(position: position, previous: previous, signer: signer, change: change)
        } catch is ByteReader.Truncated {
            throw MembershipError(.malformedRoster, "A roster entry is cut short.")
        } catch let error as RosterFormatError {
            throw MembershipError(.malformedRoster, "A roster entry is malformed: \(error.description).")
        }
    }

    private static func encode(_ authority: RosterChange.Authority, into writer: inout ByteWriter) {
        writer.fixed(authority.signing)
        writer.fixed(authority.box)
    }

    private static func authority(from reader: inout ByteReader) throws -> RosterChange.Authority {
        RosterChange.Authority(signing: try reader.fixed(SigningKeyPair.publicKeyCount), box: try reader.fixed(BoxKeyPair.publicKeyCount))
    }

    private static func encode(_ previous: RosterChange.PreviousKeys, into writer: inout ByteWriter) {
        writer.data(previous.transport)
        writer.data(previous.vault)
    }

    private static func previousKeys(from reader: inout ByteReader) throws -> RosterChange.PreviousKeys {
        RosterChange.PreviousKeys(transport: try reader.data(maximum: RosterChange.maximumSealedKey), vault: try reader.data(maximum: RosterChange.maximumSealedKey))
    }
}
