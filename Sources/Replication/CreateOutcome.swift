/// What `createOnly` did.
public enum CreateOutcome: Sendable, Equatable {
    case created
    /// The same bytes were already there (an earlier attempt succeeded before a crash).
    case alreadyPresent
}
