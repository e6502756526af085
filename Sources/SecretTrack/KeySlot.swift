import Sodium

/// One way to unwrap the store's keys: the device and vault keys sealed under a wrapping key
/// that a key provider yields (Argon2id of a passphrase, or a hash of a key file).
///
/// The wrapped blob binds the provider kind, the store id and the KDF parameters as associated
/// data, so a slot cannot be moved to another store and its parameters cannot be weakened.
struct KeySlot: Sendable {
    static let purpose = SealPurpose(tag: 2, label: "credvault/v1/key-slot")
    static let keyFileDomain = Array("credvault/v1/key-file-wrapping".utf8)
    static let keyringDomain = Array("credvault/v1/keyring-wrapping".utf8)

    let provider: KeyProviderKind
    let kdf: KDFParameters?
    let wrappedKeys: [UInt8]

    /// Wraps `keys` for `provider`.
    static func make(for provider: KeyProvider, keys: VaultKeys, storeID: String, kdf: KDFParameters) throws -> KeySlot {
        let parameters: KDFParameters? = provider.kind == .passphrase ? kdf : nil
        var provider = provider
        if case .keyFile(let contents) = provider {
            // A new slot is made from the key alone, so any form of the same key opens it.
            guard let key = KeyFileMaterial.key(in: contents) else {
                throw SecretError(.invalid, "The key file holds no key: \(KeyFileMaterial.expectedForm).",
                                  hint: "Give a new path and credctl creates a key file there, or write one with: head -c 32 /dev/urandom | base64 > FILE")
            }
            provider = .keyFile(key)
        }
        return try wrap(keys, for: provider, storeID: storeID, kdf: parameters)
    }

    /// The slot wrapping `keys` under exactly what `provider` holds (tests make slots of the
    /// earlier key-file rule with it).
    static func wrap(_ keys: VaultKeys, for provider: KeyProvider, storeID: String, kdf parameters: KDFParameters?) throws -> KeySlot {
        let wrapping = try wrappingKey(provider, kdf: parameters)
        let plain = try keys.deviceKey.appending(keys.vaultKey)
        let sealed = try SealedBox.seal(plain, key: wrapping, purpose: purpose, context: context(provider.kind, storeID: storeID, kdf: parameters))
        return KeySlot(provider: provider.kind, kdf: parameters, wrappedKeys: sealed)
    }

    /// Unwraps the keys, or throws `wrongKey` when the provider's secret does not open the slot.
    func open(with provider: KeyProvider, storeID: String) throws -> VaultKeys {
        var candidates = [provider]
        if case .keyFile(let contents) = provider { candidates = try KeyFileMaterial.unlockCandidates(contents).map(KeyProvider.keyFile) }
        for candidate in candidates {
            if let plain = try open(candidate, storeID: storeID) { return try Self.split(plain, kind: provider.kind) }
        }
        if case .keyFile(let contents) = provider, KeyFileMaterial.key(in: contents) == nil {
            throw SecretError(.invalid, "The key file holds no key and does not unlock this vault: \(KeyFileMaterial.expectedForm).",
                              hint: "Use the key file the vault was created with.")
        }
        throw SecretError(.wrongKey, "The \(provider.kind.noun) does not unlock this vault.",
                          hint: provider.kind == .passphrase ? "Check the passphrase and try again." : provider.kind == .keyFile
                              ? "Use the key file the vault was created with." : "Set the keyring up again with: credctl unlock-method set keyring")
    }

    /// The slot's plaintext under `provider`, or nil when it is not the slot's key.
    private func open(_ provider: KeyProvider, storeID: String) throws -> SecretBytes? {
        let wrapping = try Self.wrappingKey(provider, kdf: kdf)
        do {
            return try SealedBox.open(wrappedKeys, key: wrapping, purpose: Self.purpose, context: Self.context(provider.kind, storeID: storeID, kdf: kdf))
        } catch let error as SodiumError where error.code == .authenticationFailed {
            return nil
        } catch let error as SodiumError {
            throw SecretError(.authenticationFailed, "The \(provider.kind.rawValue) key slot is damaged: \(error.message)")
        }
    }

    private static func split(_ plain: SecretBytes, kind: KeyProviderKind) throws -> VaultKeys {
        let half = SealedBox.keyCount
        guard plain.count == 2 * half else { throw SecretError(.authenticationFailed, "The \(kind.rawValue) key slot holds keys of the wrong size.") }
        return VaultKeys(deviceKey: try plain.slice(0..<half), vaultKey: try plain.slice(half..<(2 * half)))
    }

    private static func wrappingKey(_ provider: KeyProvider, kdf: KDFParameters?) throws -> SecretBytes {
        switch provider {
        case .passphrase(let passphrase):
            guard passphrase.count > 0 else { throw SecretError(.invalid, "The passphrase is empty.") }
            guard let kdf else { throw SecretError(.authenticationFailed, "The passphrase key slot has no key derivation parameters.") }
            do {
                return try Argon2id.deriveKey(passphrase: passphrase, parameters: kdf)
            } catch let error as SodiumError {
                throw SecretError(.authenticationFailed, "The passphrase key slot cannot be used: \(error.message)")
            }
        case .keyFile(let contents):
            return try GenericHash.secretHash(of: contents, domain: keyFileDomain)
        case .keyring(let contents):
            return try GenericHash.secretHash(of: contents, domain: keyringDomain)
        }
    }

    private static func context(_ kind: KeyProviderKind, storeID: String, kdf: KDFParameters?) -> [UInt8] {
        Array("\(kind.rawValue)\u{0}\(storeID)\u{0}\(kdf?.canonicalText ?? "-")".utf8) + (kdf?.salt ?? [])
    }
}
