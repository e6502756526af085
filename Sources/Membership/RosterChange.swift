import Replication
import Sodium

/// What one roster entry does (docs/devices.md, "The roster").
public enum RosterChange: Sendable, Equatable {
    /// The public keys of the recovery authority.
    public struct Authority: Sendable, Equatable {
        public let signing: [UInt8]
        public let box: [UInt8]

        public init(signing: [UInt8], box: [UInt8]) {
            self.signing = signing
            self.box = box
        }
    }

    /// A device's cutoff in one zone: its last batch the revoker had read.
    public struct Cutoff: Sendable, Equatable {
        public let zone: String
        public let sequence: UInt64
        public let batchHash: [UInt8]

        public init(zone: String, sequence: UInt64, batchHash: [UInt8]) {
            self.zone = zone
            self.sequence = sequence
            self.batchHash = batchHash
        }
    }

    /// One revoked device and its cutoffs.
    public struct Revocation: Sendable, Equatable {
        public let device: String
        public let cutoffs: [Cutoff]

        public init(device: String, cutoffs: [Cutoff]) {
            self.device = device
            self.cutoffs = cutoffs
        }
    }

    /// The previous epoch's keys, each sealed under the new epoch's key of its kind.
    public struct PreviousKeys: Sendable, Equatable {
        public let transport: [UInt8]
        public let vault: [UInt8]

        public init(transport: [UInt8], vault: [UInt8]) {
            self.transport = transport
            self.vault = vault
        }
    }

    case genesis(vaultID: String, creator: DevicePublicKeys, recovery: Authority, keys: EpochKeyBoxes)
    case add(device: DevicePublicKeys, request: [UInt8], keys: EpochKeyBoxes)
    case revoke(devices: [Revocation], keys: EpochKeyBoxes, previous: PreviousKeys, recovery: Authority?)
    case rotate(keys: EpochKeyBoxes, previous: PreviousKeys)
    case recovery(authority: Authority, keys: EpochKeyBoxes, previous: PreviousKeys)

    public var kind: UInt8 {
        switch self {
        case .genesis: 0
        case .add: 1
        case .revoke: 2
        case .rotate: 3
        case .recovery: 4
        }
    }

    public var keys: EpochKeyBoxes {
        switch self {
        case .genesis(_, _, _, let keys), .add(_, _, let keys), .revoke(_, let keys, _, _), .rotate(let keys, _), .recovery(_, let keys, _): keys
        }
    }

    static let maximumRevoked = 1_024
    static let maximumZones = 16
    static let maximumSealedKey = 256
}
