import Replication

/// A local version of a secret that lost a merge — an edit of an incarnation deleted elsewhere,
/// or the older side of a concurrent edit — kept sealed on the device that made it, so nothing
/// is lost silently. Never holds the secret in the clear.
public struct SecretConflict: Sendable, Equatable {
    public let id: Int64
    /// The version that lost (its reference, availability, incarnation and when it was made).
    public let lost: SecretItem
    /// Whether what won was a deletion (otherwise an edit), and its version: which device, when.
    public let winnerDeleted: Bool
    public let winnerIncarnation: Int64
    public let winner: RecordVersion
    /// Unix seconds when this device kept it; it is collected `SecretStore.conflictRetentionDays`
    /// later.
    public let recordedAt: Int64

    public var expiresAt: Int64 { recordedAt + SecretStore.conflictRetentionDays * 86_400 }
}
