import ConfigTrack
import SecretTrack

extension Vault {
    /// The versions of secrets made on this device that lost a merge, kept sealed for
    /// `SecretStore.conflictRetentionDays` days, oldest first. Needs no unlocking.
    public func conflicts() throws(VaultError) -> [SecretConflict] {
        try VaultError.wrapping { try secrets.conflicts() }
    }

    /// Brings the kept version `id` back as a new incarnation of its secret (which then syncs
    /// and wins everywhere) and points its host or identity at it again. A removed host comes
    /// back too, as the next incarnation of its record, from the state this device kept when it
    /// was removed (refused, changing nothing, when its label is now taken or what it names is
    /// gone); so does a removed identity, for its private key or passphrase. Needs the vault
    /// unlocked.
    ///
    /// Order for crash safety: the body first, then the record's reference, then the kept
    /// version is forgotten — a crash in between leaves the entry, and restoring again is safe.
    @discardableResult
    public func restoreConflict(_ id: Int64) throws(VaultError) -> SecretReference {
        try VaultError.wrapping {
            guard let conflict = try secrets.conflicts().first(where: { $0.id == id }) else {
                throw VaultError(.notFound, "There is no conflict \(id) on this device.", hint: "List them with: credctl conflicts list")
            }
            let reference = try SecretReference(parsing: conflict.lost.reference)
            // The record that names the secret must still exist; relinking it waits for the body.
            let relink: () throws -> Void
            switch reference.field {
            case .hostPassword:
                guard let host = try config.host(id: reference.owner) else {
                    guard var removed = try config.removedHost(id: reference.owner) else {
                        throw VaultError(.notFound, "The host this password belonged to was removed before this device held it; nothing was restored.",
                                         hint: "Add the host again and restore the password from conflicts show --reveal, or leave the kept version to expire.")
                    }
                    removed.passwordRef = reference
                    if removed.authMethod == .agent { removed.authMethod = .password }
                    // Checked before the body is written: a host that cannot come back changes nothing.
                    try config.validate(removed)
                    relink = { try self.config.revive(removed) }
                    break
                }
                relink = {
                    guard host.passwordRef != reference else { return }
                    var linked = host
                    linked.passwordRef = reference
                    if linked.authMethod == .agent { linked.authMethod = .password }
                    try self.config.save(linked)
                }
            case .identityPrivateKey, .identityPassphrase:
                guard let identity = try config.identity(id: reference.owner) else {
                    guard var removed = try config.removedIdentity(id: reference.owner) else {
                        throw VaultError(.notFound, "The identity this secret belonged to was removed before this device held it; nothing was restored.",
                                         hint: "Add the identity again, or leave the kept version to expire.")
                    }
                    if reference.field == .identityPassphrase {
                        removed.passphraseRef = reference
                        try requirePrivateKey(of: removed)
                    }
                    try config.validate(removed)
                    relink = { try self.config.revive(removed) }
                    break
                }
                relink = {
                    // A private key is always named by its identity; a passphrase may have been cleared.
                    guard reference.field == .identityPassphrase, identity.passphraseRef != reference else { return }
                    var linked = identity
                    linked.passphraseRef = reference
                    try self.config.save(linked)
                }
            }
            try secrets.restoreConflict(id)
            Failpoint.hit("restore-conflict.after-secret")
            try relink()
            try secrets.dropConflict(id)
            return reference
        }
    }

    /// The kept version `id` of a secret, in the clear. Needs the vault unlocked.
    public func revealConflict(_ id: Int64) throws(VaultError) -> SecretBytes {
        try VaultError.wrapping { try secrets.revealConflict(id) }
    }

    /// The kept config value `id` (`c<id>`), if there is one.
    public func configConflict(id: Int64) throws(VaultError) -> ConfigConflict? {
        try VaultError.wrapping { try config.conflict(id: id) }
    }

    /// The config field values written on this device that lost a merge to a write made
    /// without knowing them, kept for `ConfigStore.conflictRetentionDays` days, oldest first.
    public func configConflicts() throws(VaultError) -> [ConfigConflict] {
        try VaultError.wrapping { try config.conflicts() }
    }

    /// Applies the kept config value `id` to its record again as a new edit (see
    /// `ConfigStore.restoreConflict`), then forgets it. Needs no unlocking.
    @discardableResult
    public func restoreConfigConflict(_ id: Int64) throws(VaultError) -> ConfigConflict {
        try VaultError.wrapping {
            // A removed identity comes back only with its private key (restored first).
            if let conflict = try config.conflict(id: id), conflict.kind == "identity", let owner = conflict.recordID,
               try config.identity(id: owner) == nil, let removed = try config.removedIdentity(id: owner) {
                try requirePrivateKey(of: removed)
            }
            let conflict = try config.restoreConflict(id)
            try config.dropConflict(id)
            return conflict
        }
    }

    /// An identity brought back without its private key would name a deleted secret.
    private func requirePrivateKey(of identity: Identity) throws {
        guard case .present = try secrets.state(of: identity.privateKeyRef.key) else {
            throw VaultError(.notFound, "The private key of identity '\(identity.label)' was removed with it; nothing was restored.",
                             hint: "Restore its kept private key first (credctl conflicts list), or add the identity again.")
        }
    }
}
