import Replication
import Sodium

/// What the roster says of a device: its id and the public halves of its keys, and its name
/// sealed under an epoch's transport key (a name is never on the remote in clear).
public struct DevicePublicKeys: Sendable, Equatable {
    public let id: String
    /// Verifies the objects it writes to the zones.
    public let signing: [UInt8]
    /// Verifies the roster entries it appends.
    public let roster: [UInt8]
    /// Receives epochs' transport keys.
    public let syncBox: [UInt8]
    /// Receives epochs' vault keys.
    public let vaultBox: [UInt8]
    public let sealedName: [UInt8]

    public init(id: String, signing: [UInt8], roster: [UInt8], syncBox: [UInt8], vaultBox: [UInt8], sealedName: [UInt8]) {
        self.id = id
        self.signing = signing
        self.roster = roster
        self.syncBox = syncBox
        self.vaultBox = vaultBox
        self.sealedName = sealedName
    }

    /// A sealed name is a short label plus the seal's overhead; more is not a name.
    static let maximumSealedName = 1_024

    func encode(into writer: inout ByteWriter) {
        writer.string(id)
        for key in [signing, roster, syncBox, vaultBox] { writer.fixed(key) }
        writer.data(sealedName)
    }

    static func decode(from reader: inout ByteReader) throws -> DevicePublicKeys {
        let id = try reader.string(maximum: 128)
        guard VersionContext.isDeviceName(id) else { throw RosterFormatError("a device id is not printable ASCII of 1 to 128 bytes") }
        return DevicePublicKeys(id: id, signing: try reader.fixed(SigningKeyPair.publicKeyCount), roster: try reader.fixed(SigningKeyPair.publicKeyCount),
                                syncBox: try reader.fixed(BoxKeyPair.publicKeyCount), vaultBox: try reader.fixed(BoxKeyPair.publicKeyCount),
                                sealedName: try reader.data(maximum: maximumSealedName))
    }
}
