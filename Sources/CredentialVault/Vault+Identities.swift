import FoundationEssentials
import SecretTrack

extension Vault {
    /// Imports the private key at `privateKeyPath` as a new identity: the key (and its
    /// passphrase, if given) are sealed first, then the identity with its public key is saved.
    @discardableResult
    public func addIdentity(label: String, privateKeyPath: String, username: String? = nil, passphrase: SecretBytes? = nil) throws(VaultError) -> Identity {
        try addIdentity(id: UUID(), label: label, privateKeyPath: privateKeyPath, username: username, passphrase: passphrase)
    }

    /// `addIdentity` with the new identity's id chosen by the caller (seeded tests replay exactly).
    func addIdentity(id: UUID, label: String, privateKeyPath: String, username: String?, passphrase: SecretBytes?) throws(VaultError) -> Identity {
        try VaultError.wrapping {
            let key = try PrivateKeyFile.load(path: privateKeyPath)
            if passphrase != nil && !key.isEncrypted {
                throw VaultError(.invalidInput, "The key \(privateKeyPath) is not encrypted, so it has no passphrase to store.",
                                 hint: "Add it without a passphrase.")
            }
            var identity = Identity(id: id, label: label, username: username, keyType: key.keyType, publicKey: key.publicKey)
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
