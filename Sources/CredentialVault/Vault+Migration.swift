import SecretTrack

extension Vault {
    /// Makes device-only secrets syncable, explicitly (unlocking does the same every time): each
    /// unpinned device-only item is resealed under the vault key and journaled, the secrets zone
    /// syncs, and each migrated item's device-only copy is dropped once the remote is read back
    /// and holds its body. What cannot finish now (remote unreachable) stays pending for the next
    /// run or unlock. With `dryRun`, changes nothing, needs no key, and lists what would happen.
    /// Needs a remote; without `dryRun`, the vault unlocked.
    public func migrate(dryRun: Bool = false) throws(VaultError) -> MigrationReport {
        try VaultError.wrapping {
            guard hasRemote else {
                throw VaultError(.noRemote, "This vault has no remote: its secrets stay device-only until one is set.",
                                 hint: "Set one with: credctl remote set DIR")
            }
            if dryRun {
                let waiting = try secrets.awaitingVerification().map { MigrationReport.Item(reference: $0.reference, step: .awaitingVerification) }
                let next = try secrets.awaitingMigration().map { MigrationReport.Item(reference: $0, step: .wouldMigrate) }
                return MigrationReport(items: next + waiting, sync: nil)
            }
            let migrated = Set(try secrets.migrateDeviceOnlyItems())
            let before = Set(try secrets.awaitingVerification().map(\.reference)).union(migrated)
            let outcome = try sync(zones: [.secrets]).first
            let still = Set(try secrets.awaitingVerification().map(\.reference))
            let items = before.sorted().map { MigrationReport.Item(reference: $0, step: still.contains($0) ? .awaitingVerification : .verified) }
            return MigrationReport(items: items, sync: outcome)
        }
    }

    /// Pins a secret to this device (`deviceOnly`: a syncable one is deleted on every other
    /// device through a tombstone and kept here as a new, device-only incarnation) or lets it
    /// sync again (migrated at once when a remote is bound and the vault is unlocked, else at
    /// the next unlock). Pinning a syncable secret needs the vault unlocked.
    @discardableResult
    public func pin(_ reference: SecretReference, deviceOnly: Bool) throws(VaultError) -> SecretItem {
        try VaultError.wrapping {
            if deviceOnly { return try secrets.pinDeviceOnly(reference.key) }
            let item = try secrets.unpin(reference.key)
            if hasRemote && secrets.isUnlocked && item.availability == .deviceOnly {
                try secrets.migrateDeviceOnlyItems()
                if case .present(let migrated) = try secrets.state(of: reference.key) { return migrated }
            }
            return item
        }
    }
}
