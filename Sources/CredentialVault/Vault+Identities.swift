import Identifiers
import SecretTrack

extension Vault {
    /// Imports the private key at `privateKeyPath` as a new identity: the key (and its
    /// passphrase, if given) are sealed first, then the identity with its public key is saved.
    /// `confirm`: each use of the key must be confirmed (`Identity.confirm`).
    @discardableResult
    public func addIdentity(label: String, privateKeyPath: String, username: String? = nil, passphrase: SecretBytes? = nil,
                            confirm: Bool = false) throws(VaultError) -> Identity {
        try addIdentity(id: UUID(), label: label, privateKeyPath: privateKeyPath, username: username, passphrase: passphrase, confirm: confirm)
    }

    /// `addIdentity` with the new identity's id chosen by the caller (seeded tests replay exactly).
    func addIdentity(id: UUID, label: String, privateKeyPath: String, username: String?, passphrase: SecretBytes?,
                     confirm: Bool = false) throws(VaultError) -> Identity {
        try VaultError.wrapping {
            let key = try PrivateKeyFile.load(path: privateKeyPath)
            if passphrase != nil && !key.isEncrypted {
                throw VaultError(.invalidInput, "The key \(privateKeyPath) is not encrypted, so it has no passphrase to store.",
                                 hint: "Add it without a passphrase.")
            }
            var identity = Identity(id: id, label: label, username: username, keyType: key.keyType, publicKey: key.publicKey, confirm: confirm)
            if passphrase != nil { identity.passphraseRef = .identityPassphrase(identity.id) }
            try config.validate(identity)
            try putSecret(key.body, for: identity.privateKeyRef, availability: newSecretAvailability)
            if let passphrase, let reference = identity.passphraseRef {
                try putSecret(passphrase, for: reference, availability: newSecretAvailability)
            }
            Failpoint.hit("add-identity.after-secret")
            return try config.save(identity)
        }
    }

    /// Saves an edit of an identity's label, user name or confirmation: config alone, so nothing
    /// needs unlocking. The identity must be the version read from the vault (`conflict` when
    /// another process changed or removed it meanwhile). Its key pair is not edited: one with
    /// another public key or other references is refused (`invalidInput`) — a new key is added
    /// as an identity of its own, so no host silently changes keys.
    @discardableResult
    public func updateIdentity(_ identity: Identity) throws(VaultError) -> Identity {
        try VaultError.wrapping {
            if let stored = try config.identity(id: identity.id),
               (stored.keyType, stored.publicKey, stored.privateKeyRef, stored.passphraseRef)
                != (identity.keyType, identity.publicKey, identity.privateKeyRef, identity.passphraseRef) {
                throw VaultError(.invalidInput, "The key of identity '\(CanonicalUUID.printable(stored.label))' cannot be edited.",
                                 hint: "Add the other key as an identity of its own.")
            }
            return try config.save(identity)
        }
    }

    /// The identity whose public key is `blob` (an SSH public key blob, as an agent's client
    /// names the key it wants used), or nil. An agent reads `confirm` from it before signing.
    public func identity(publicKeyBlob blob: [UInt8]) throws(VaultError) -> Identity? {
        try VaultError.wrapping { try config.identities().first { $0.publicKeyBlob == blob } }
    }

    /// Removes an identity (refused while hosts use it), then its key and passphrase bodies.
    public func removeIdentity(_ labelOrID: String) throws(VaultError) {
        try VaultError.wrapping {
            let identity = try config.identity(labelOrID)
            try config.removeIdentity(id: identity.id)
            Failpoint.hit("remove-identity.after-config")
            try secrets.delete(SecretReference.identityPrivateKey(identity.id).key)
            try secrets.delete(SecretReference.identityPassphrase(identity.id).key)
        }
    }
}
