/// A device of the vault as the verified roster gives it (`credctl device list`).
public struct DeviceSummary: Sendable, Equatable {
    public enum State: String, Sendable {
        case member, revoked
        /// Asked to join (`device requests`); not a member yet.
        case pending
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
    /// The newest epoch whose keys the roster boxed to it (for a revoked device, the last before
    /// its revocation); nil for a pending request.
    public var epoch: UInt32?
    /// When its newest change this device has applied was made, by its own clock (milliseconds
    /// since 1970); nil when none was applied (or for this device itself).
    public var lastHeardMilliseconds: UInt64?
}
