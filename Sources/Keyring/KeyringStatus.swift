/// What `credctl status` says about the desktop keyring.
public enum KeyringStatus: Sendable, Equatable {
    case available
    case locked(String)
    case unavailable(String)

    public var name: String {
        switch self {
        case .available: "available"
        case .locked: "locked"
        case .unavailable: "unavailable"
        }
    }

    public var reason: String? {
        switch self {
        case .available: nil
        case .locked(let reason), .unavailable(let reason): reason
        }
    }
}
