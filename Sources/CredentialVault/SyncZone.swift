/// The zones a vault replicates, each with its own cursors, journal and quarantine.
public enum SyncZone: String, Sendable, CaseIterable {
    case config
    case secrets
}
