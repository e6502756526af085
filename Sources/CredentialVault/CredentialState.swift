/// What this device holds for a secret a record names, as `host show` and `identity show` say it:
/// the same cases `resolve` and `read` answer with errors, known without unlocking.
public enum CredentialState: String, Sendable {
    /// A sealed body is here.
    case stored
    /// The record arrived; its body has not reached this device yet.
    case notSynced = "not-synced"
    /// The body was deleted (a deletion marker stands).
    case deleted
    /// A copy arrived but failed validation and is held in quarantine.
    case quarantined

    /// How `show` commands print it.
    public var text: String {
        switch self {
        case .stored: "stored"
        case .notSynced: "not synced to this device yet"
        case .deleted: "deleted"
        case .quarantined: "quarantined (see credctl quarantine list)"
        }
    }
}
