/// What a zone store did with one fetched envelope.
public enum MergeOutcome: Sendable, Equatable {
    /// It won and was written.
    case applied
    /// What this device had won (or was equal).
    case ignored
    /// It cannot be applied; kept in quarantine with this reason.
    case quarantined(String)
}
