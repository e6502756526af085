import Membership

/// A pending join request, as a member sees it (`credctl device requests`).
public struct JoinRequestSummary: Sendable, Equatable {
    /// The joining device's id.
    public let device: String
    /// The name it gave, opened with this device's key (nil when not sealed to this device: it
    /// asked before this device joined).
    public let name: String?
    /// The verification code the joining device printed.
    public let code: String
    /// When the request expires (Unix seconds).
    public let expires: Int64
    /// Approved already; the joining device has not confirmed yet.
    public let approved: Bool
}

extension String {
    /// Whether `typed` is this code as a user may type it (case, dashes, white space and the
    /// look-alikes I, L and O do not matter).
    public func matches(typed: String) -> Bool { JoinCode.matches(typed, self) }
}
