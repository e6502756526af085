import Membership

/// What binding a vault to a remote did (`Vault.setRemote`).
public enum BindOutcome: Sendable {
    /// This device created the remote: the vault's roster starts with it. The recovery key is
    /// shown to the user once and kept nowhere.
    case created(recoveryKey: RecoveryKey)
    /// This device was already a member of the vault on that remote: bound (again).
    case bound
    /// This device joined the vault on the remote (with the recovery key, or approved by a member
    /// and confirmed); `adopted` when this vault took that vault's id and key.
    case joined(adopted: Bool)
    /// A join request is on the remote, waiting for a member to approve the device whose
    /// verification code this is.
    case awaitingApproval(code: String)
    /// A member approved the request: the device waits for the user to type the confirmation
    /// code the member showed.
    case awaitingConfirmation
}

/// How a device that is not a member joins the vault on a remote.
public struct JoinCredentials: Sendable {
    /// The name this device goes by on the others (sealed in the roster); the host name when nil.
    public var name: String?
    /// Joins with no other device when given.
    public var recoveryKey: RecoveryKey?
    /// The confirmation code the approving member showed.
    public var confirmation: String?

    public init(name: String? = nil, recoveryKey: RecoveryKey? = nil, confirmation: String? = nil) {
        self.name = name
        self.recoveryKey = recoveryKey
        self.confirmation = confirmation
    }
}
