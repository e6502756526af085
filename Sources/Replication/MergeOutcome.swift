/// What a zone store did with one fetched envelope.
public enum MergeOutcome: Sendable, Equatable {
    /// It won and was written.
    case applied
    /// What this device had won (or was equal).
    case ignored
    /// It cannot be applied; kept in quarantine with this reason.
    case quarantined(String)
    /// Written by a newer build (a record kind or format version this one does not know): kept
    /// whole in quarantine and merged again by every later sync, so an upgrade applies it.
    case unsupported(String)
    /// It cannot be applied and its bytes must not be kept (they might be an unsealed secret):
    /// only the reason is recorded.
    case refused(String)
}
