internal import CSodium

/// Password-based key derivation with Argon2id.
public enum Argon2id {
    /// Derives `length` key bytes from `passphrase` with `parameters`.
    /// The corresponding C function is `crypto_pwhash` with `crypto_pwhash_ALG_ARGON2ID13`.
    public static func deriveKey(passphrase: SecretBytes, parameters: KDFParameters, length: Int = 32) throws -> SecretBytes {
        SodiumRuntime.ensureInitialized()
        try parameters.validate()
        guard length >= Int(crypto_pwhash_BYTES_MIN) else { throw SodiumError(.invalidArgument, "Derived key length \(length) is too short.") }
        let key = try SecretBytes(zeroedCount: length)
        let status = key.withUnsafeMutableBytes { out in
            passphrase.withUnsafeBytes { pass in
                // crypto_pwhash wants a non-null pointer even for an empty passphrase; SecretBytes
                // always has a real allocation behind it.
                crypto_pwhash(
                    out.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(length),
                    pass.baseAddress!.assumingMemoryBound(to: CChar.self), UInt64(pass.count),
                    parameters.salt, parameters.opsLimit, Int(parameters.memLimit),
                    crypto_pwhash_ALG_ARGON2ID13)
            }
        }
        guard status == 0 else {
            throw SodiumError(.keyDerivationFailed, "Argon2id key derivation failed (\(parameters.canonicalText)); the machine may lack the memory.")
        }
        return key
    }
}
