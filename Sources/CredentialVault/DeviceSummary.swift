/// A device of the vault as the verified roster gives it (`credctl device list`).
public struct DeviceSummary: Sendable, Equatable {
    public enum State: String, Sendable {
        case member, revoked
    }

    public let id: String
    /// Its name, opened with the transport keys this device holds (nil when none opens it).
    public let name: String?
    public let state: State
    /// How it joined: "created the vault", "approved by NAME", "recovery key".
    public let joined: String
    /// Who revoked it, for a revoked device.
    public let revokedBy: String?
    public let isThisDevice: Bool
}
