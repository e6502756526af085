/// What `Vault.migrate` did, or with `dryRun` would do, to make device-only secrets syncable.
public struct MigrationReport: Sendable {
    public enum Step: String, Sendable {
        /// Device-only, not pinned: the next migration reseals it under the vault key.
        case wouldMigrate
        /// Resealed and journaled; its device-only copy stays until the remote holds it.
        case awaitingVerification
        /// The remote was read back and holds exactly this body: the device-only copy is gone.
        case verified
    }

    public struct Item: Sendable {
        public let reference: String
        public let step: Step
    }

    public let items: [Item]
    /// The secrets zone's sync, when the migration ran one (never for a dry run).
    public let sync: ZoneOutcome?
}
