import Replication

/// Names one stored version of one body: a body kept outside `secrets.sqlite` is found by it.
/// Every new version or incarnation has a key of its own, so a key is never reused.
public struct BodyKey: Hashable, Sendable {
    /// The device whose store keeps the body (`SecretStore.deviceID`). Not the vault id: every
    /// device of a vault shares that, and two of them can use one keyring (a shared keyring, a
    /// second vault directory on the same desktop); each must only ever see its own bodies.
    public let device: String
    public let reference: String
    public let incarnation: Int64
    public let version: RecordVersion

    public init(device: String, reference: String, incarnation: Int64, version: RecordVersion) {
        self.device = device
        self.reference = reference
        self.incarnation = incarnation
        self.version = version
    }
}
