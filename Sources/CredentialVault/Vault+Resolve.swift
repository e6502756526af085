import Identifiers
import SecretTrack

extension Vault {
    /// Resolves a host into everything a connection needs, opening its credential.
    ///
    /// Errors are distinct: `notFound` (no such host), `noCredential` (the auth method needs a
    /// credential none is configured for), `notYetSynced` (the config names a body that has not
    /// arrived), `deleted`, `quarantined`, `locked`.
    ///
    /// With `openingPrivateKeys` false, a host that authenticates with a key gets
    /// `.keyInVault`: its identity, with the key's body (and passphrase) checked to be here but
    /// not opened — a credctl agent signs with it.
    public func resolve(_ labelOrID: String, openingPrivateKeys: Bool = true) throws(VaultError) -> ResolvedConnection {
        try VaultError.wrapping {
            // Config from one snapshot, so host, identity, jump hosts and forwards agree.
            let records = try config.snapshot { snapshot in
                let host = try snapshot.host(labelOrID)
                return ConnectionRecords(host: host, identity: try identity(of: host, in: snapshot), endpoint: try endpoint(host, in: snapshot),
                                         jumpChain: try jumpChain(of: host, in: snapshot), forwards: try snapshot.forwards(forHost: host.id))
            }
            return ResolvedConnection(host: records.host, endpoint: records.endpoint, jumpChain: records.jumpChain, forwards: records.forwards,
                                      auth: try auth(for: records.host, identity: records.identity, openingPrivateKeys: openingPrivateKeys))
        }
    }

    /// Opens one secret by reference, but only a reference that config currently names: an
    /// unreferenced (orphan) body is never handed out as a credential.
    public func readSecret(_ reference: SecretReference) throws(VaultError) -> SecretBytes {
        try VaultError.wrapping {
            // The owner's label when config references the secret, else nothing: an unreferenced
            // (orphan) body is never handed out.
            let owner: String?
            switch reference.field {
            case .hostPassword:
                owner = try config.host(id: reference.owner).flatMap { $0.passwordRef == reference ? $0.label : nil }
            case .identityPrivateKey:
                owner = try config.identity(id: reference.owner)?.label
            case .identityPassphrase:
                owner = try config.identity(id: reference.owner).flatMap { $0.passphraseRef == reference ? $0.label : nil }
            }
            guard let owner else { throw try unnamedSecret(reference) }
            return try open(reference, owner: owner)
        }
    }

    /// Why config names no such secret, in the words of the record it would belong to.
    private func unnamedSecret(_ reference: SecretReference) throws -> VaultError {
        switch reference.field {
        case .hostPassword:
            guard let host = try config.host(id: reference.owner) else {
                return VaultError(.notFound, "No host on this device has the id of \(reference).", hint: "List them with: credctl host list")
            }
            let how = switch host.authMethod {
            case .publicKey, .agent:
                try host.identityID.flatMap { try config.identity(id: $0) }.map { "uses the identity '\($0.label)' (\(host.authMethod.rawValue))" }
                    ?? "authenticates with \(host.authMethod.rawValue)"
            case .password: "uses password authentication but none is stored"
            case .keyboardInteractive: "authenticates with keyboard-interactive, answered at the terminal"
            }
            return VaultError(.noCredential, "Host '\(host.label)' has no password: it \(how).",
                              hint: "Store one with: credctl host edit '\(host.label)' --password-stdin")
        case .identityPassphrase:
            guard let identity = try config.identity(id: reference.owner) else {
                return VaultError(.notFound, "No identity on this device has the id of \(reference).", hint: "List them with: credctl identity list")
            }
            return VaultError(.noCredential, "Identity '\(identity.label)' has no passphrase stored.",
                              hint: "An encrypted key's passphrase is stored with: credctl identity add LABEL --private-key FILE --passphrase-stdin")
        case .identityPrivateKey:
            return VaultError(.notFound, "No identity on this device has the id of \(reference).", hint: "List them with: credctl identity list")
        }
    }

    private func auth(for host: Host, identity: Identity?, openingPrivateKeys: Bool) throws -> ResolvedAuth {
        switch host.authMethod {
        case .password:
            guard let reference = host.passwordRef else {
                throw VaultError(.noCredential, "Host '\(host.label)' uses password authentication but has no password stored.",
                                 hint: "Set one with: credctl host edit '\(host.label)' --password-stdin")
            }
            return .password(try open(reference, owner: host.label))
        case .publicKey:
            guard let identity else {
                throw VaultError(.noCredential, "Host '\(host.label)' uses public-key authentication but has no identity.",
                                 hint: "Give it one with: credctl host edit '\(host.label)' --identity LABEL")
            }
            guard openingPrivateKeys else {
                try checkPresent(identity.privateKeyRef, owner: host.label)
                try identity.passphraseRef.map { try checkPresent($0, owner: host.label) }
                return .keyInVault(identity: identity)
            }
            let key = try open(identity.privateKeyRef, owner: host.label)
            let passphrase = try identity.passphraseRef.map { try open($0, owner: host.label) }
            return .privateKey(key: key, passphrase: passphrase, identity: identity)
        case .agent:
            return .agent(identity: identity)
        case .keyboardInteractive:
            return .keyboardInteractive(password: try host.passwordRef.map { try open($0, owner: host.label) })
        }
    }

    /// The host's identity; an id whose record has not arrived is reported as not yet synced.
    private func identity(of host: Host, in snapshot: ConfigSnapshot) throws -> Identity? {
        guard let id = host.identityID else { return nil }
        guard let identity = try snapshot.identity(id: id) else {
            throw VaultError(.notYetSynced, "The identity of '\(host.label)' has not synced to this device yet.", hint: Self.notSyncedHint)
        }
        return identity
    }

    /// Opens a body, turning an absent one into the explicit not-yet-synced error.
    private func open(_ reference: SecretReference, owner: String) throws -> SecretBytes {
        do {
            // Locked, a body that is here comes from the agent; anything else is answered here.
            if !secrets.isUnlocked, let source = secretSource, case .present = try secrets.state(of: reference.key) {
                return try source.read(reference)
            }
            let secret = try secrets.read(reference.key)
            #if CREDVAULT_PLANTED_LEAK
            PlantedLeak.spill(secret, vault: self)
            #endif
            return secret
        } catch let error as SecretError {
            throw explained(error, reference, owner: owner)
        }
    }

    /// Checks that a body is here to be opened (by an agent), with `open`'s errors when not.
    private func checkPresent(_ reference: SecretReference, owner: String) throws {
        let code: SecretError.Code
        do {
            switch try secrets.state(of: reference.key) {
            case .present: return
            case .deleted: code = .deleted
            case .quarantined: code = .quarantined
            case .absent: code = .absent
            }
        } catch let error as SecretError {
            throw explained(error, reference, owner: owner)
        }
        throw explained(SecretError(code, "\(reference) is not here."), reference, owner: owner)
    }

    /// A secret track error in the words of the record the secret belongs to.
    private func explained(_ error: SecretError, _ reference: SecretReference, owner: String) -> VaultError {
        switch error.code {
        case .absent:
            return VaultError(.notYetSynced, "Credentials for '\(owner)' have not synced to this device yet (\(reference) is missing).", hint: Self.notSyncedHint)
        case .deleted:
            return VaultError(.deleted, "The credential \(reference) of '\(owner)' was deleted.",
                             hint: "Set it again, or remove the reference from '\(owner)'.")
        case .quarantined:
            return VaultError(.quarantined, "The credential \(reference) of '\(owner)' arrived but was quarantined (it failed validation).",
                             hint: "Check credctl status; the device that wrote it may run a newer version.")
        case .locked where !secrets.isUnlocked:
            // (Unlocked, `locked` is about the desktop keyring holding the bodies; its own message says so.)
            return VaultError(.locked, "The vault is locked; unlock it to use the credentials of '\(owner)'.",
                             hint: "Give --passphrase-file or --key-file, or run from a terminal to be asked.")
        default:
            return VaultError.from(error)
        }
    }

    static let notSyncedHint = "They were saved on another device. Let that device and this one sync, then try again; check that both use the same remote."

    private func endpoint(_ host: Host, in snapshot: ConfigSnapshot) throws -> Endpoint {
        var username = host.username
        if username == nil, let id = host.identityID { username = try snapshot.identity(id: id)?.username }
        return Endpoint(label: host.label, hostname: host.hostname, port: host.port, username: username)
    }

    /// The jump hosts, first hop first. Save-time checks forbid loops; the guard here protects
    /// against loops assembled by merging two devices' edits.
    private func jumpChain(of host: Host, in snapshot: ConfigSnapshot) throws -> [Endpoint] {
        var chain: [Endpoint] = []
        var seen: Set<UUID> = [host.id]
        var next = host.jumpHostID
        while let id = next {
            guard seen.insert(id).inserted else {
                throw VaultError(.invalidInput, "The jump hosts of '\(host.label)' form a loop.", hint: "Edit one of them to break it.")
            }
            guard let jump = try snapshot.host(id: id) else {
                throw VaultError(.notYetSynced, "The jump host of '\(host.label)' has not synced to this device yet.", hint: Self.notSyncedHint)
            }
            chain.insert(try endpoint(jump, in: snapshot), at: 0)
            next = jump.jumpHostID
        }
        return chain
    }
}
