/// What importing one keyring item did, or would do. Never holds the secret.
public struct KeyringImportEntry: Sendable, Equatable {
    public enum Action: String, Sendable {
        /// A new host with the item's password (device-only until the migration).
        case created
        /// An existing host that had no password got the item's.
        case passwordAdded
        /// The matching host already holds this password.
        case unchanged
        /// The matching host holds another password; the vault's is kept.
        case keptVaultPassword
        /// A matching host with a password, not compared (a dry run opens no secret).
        case exists
        /// Not imported; `reason` says why.
        case skipped
    }

    /// The item's label in the keyring.
    public let itemLabel: String
    public let action: Action
    /// The host it went to (or would go to), when not skipped.
    public let host: String?
    /// `user@hostname:port` of that host, when the item named one.
    public let endpoint: String?
    /// Why it was skipped, or why the vault's password was kept.
    public let reason: String?

    /// The reason given for an item whose collection is locked.
    public static let lockedReason = "its keyring collection is locked"
}
