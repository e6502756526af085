/// The one error type of the `CredentialVault` facade.
///
/// `code` is stable (scripts and the CLI's exit statuses depend on it); `message` says what
/// failed, on what, and why; `hint` says what the user can do. Neither ever contains a secret.
/// Equality is by code.
public struct VaultError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable, CaseIterable {
        /// No such host, identity, group, forward rule or reference.
        case notFound
        /// The host is set up for an authentication method with no credential configured.
        case noCredential
        /// The config names a secret whose body has not arrived on this device.
        case notYetSynced
        /// The secret was deleted; the config reference is stale.
        case deleted
        /// The vault is locked: no key was supplied or the key provider is unavailable.
        case locked
        /// The supplied passphrase or key file does not open this vault.
        case wrongKey
        /// The secret was received but quarantined (it failed validation or authentication).
        case quarantined
        /// Input that cannot be accepted: a bad label, hostname, port, key file or reference.
        case invalidInput
        /// A record with that label already exists.
        case alreadyExists
        /// The record is still used by others (an identity used by hosts, for instance).
        case inUse
        /// The record changed or disappeared meanwhile (another process edited it); retry.
        case conflict
        /// Stored data failed authentication or is damaged.
        case corrupt
        /// The vault directory does not exist or holds no vault.
        case noVault
        /// A file or database operation failed.
        case storage
        /// The vault has no remote configured.
        case noRemote
        /// Something the vault needs cannot be reached now (the remote, the desktop keyring
        /// holding its secrets).
        case unavailable
        /// The remote refused this device's credentials or denied it access, or no credentials
        /// were given for it.
        case accessDenied
        /// This device was revoked from its vault: it keeps its local data, and syncs no more.
        case revoked
    }

    public let code: Code
    public let message: String
    public let hint: String?

    public init(_ code: Code, _ message: String, hint: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
    }

    public var description: String { hint.map { "\(message) (\($0))" } ?? message }

    public static func == (lhs: VaultError, rhs: VaultError) -> Bool { lhs.code == rhs.code }
}
