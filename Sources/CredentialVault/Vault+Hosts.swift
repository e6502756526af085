import SecretTrack

extension Vault {
    /// Adds a host. With a password, the body is stored first and the host then references it.
    @discardableResult
    public func addHost(_ host: Host, password: SecretBytes? = nil) throws(VaultError) -> Host {
        try addHost(host, password: password, availability: newSecretAvailability)
    }

    /// `addHost` with the password's availability chosen by the caller.
    func addHost(_ host: Host, password: SecretBytes?, availability: Availability) throws(VaultError) -> Host {
        try VaultError.wrapping {
            var host = host
            host.passwordRef = nil
            if password != nil {
                host.passwordRef = .hostPassword(host.id)
                if host.authMethod == .agent { host.authMethod = .password }
            }
            // Check everything the config will check before any secret is written.
            try config.validate(host)
            if let password, let reference = host.passwordRef {
                try putSecret(password, for: reference, availability: availability)
                Failpoint.hit("add-host.after-secret")
            }
            return try config.save(host)
        }
    }

    /// Changes a host's settings and, optionally, its password (set: body first, then
    /// reference; clear: reference first, then body and its deletion marker).
    ///
    /// The host must be the version read from the vault; if another process changed or removed
    /// it meanwhile, nothing is saved (`conflict`). With `.set`, the new body is written before
    /// that check, so a refused edit can still have replaced the password (never a wrong one:
    /// the body is the host's own reference).
    @discardableResult
    public func updateHost(_ host: Host, password: PasswordChange = .keep) throws(VaultError) -> Host {
        try updateHost(host, password: password, availability: newSecretAvailability)
    }

    /// `updateHost` with a new password's availability chosen by the caller.
    func updateHost(_ host: Host, password: PasswordChange, availability: Availability) throws(VaultError) -> Host {
        try VaultError.wrapping {
            var host = host
            let reference = SecretReference.hostPassword(host.id)
            switch password {
            case .keep:
                break
            case .set(let body):
                host.passwordRef = reference
                try config.validate(host)
                try putSecret(body, for: reference, availability: availability)
                Failpoint.hit("update-host.after-secret")
            case .clear:
                host.passwordRef = nil
            }
            let saved = try config.save(host)
            if case .clear = password {
                Failpoint.hit("clear-password.after-config")
                try secrets.delete(reference.key)
            }
            return saved
        }
    }

    /// Removes a host, its forward rules, and then its password body (leaving a deletion marker).
    public func removeHost(_ labelOrID: String) throws(VaultError) {
        try VaultError.wrapping {
            let host = try config.host(labelOrID)
            try config.removeHost(id: host.id)
            Failpoint.hit("remove-host.after-config")
            try secrets.delete(SecretReference.hostPassword(host.id).key)
        }
    }
}
