internal import CSodium

/// BLAKE2b hashing (`crypto_generichash`).
public enum GenericHash {
    /// A 32-byte digest of public bytes, optionally keyed by a domain label.
    public static func hash(_ bytes: [UInt8], domain: [UInt8] = []) -> [UInt8] {
        bytes.withUnsafeBytes { hash($0, domain: domain) }
    }

    /// A 32-byte digest of `bytes`, optionally keyed by a domain label of 16 to 64 bytes.
    public static func hash(_ bytes: UnsafeRawBufferPointer, domain: [UInt8] = []) -> [UInt8] {
        SodiumRuntime.ensureInitialized()
        precondition(domain.isEmpty || (domain.count >= Int(crypto_generichash_KEYBYTES_MIN) && domain.count <= Int(crypto_generichash_KEYBYTES_MAX)), "hash domain label has an invalid length")
        var out = [UInt8](repeating: 0, count: 32)
        let status = crypto_generichash(&out, 32, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count), domain.isEmpty ? nil : domain, domain.count)
        precondition(status == 0, "crypto_generichash failed for valid arguments")
        return out
    }

    /// A 32-byte secret digest of secret bytes (for turning a key file into a key), in guarded memory.
    public static func secretHash(of secret: SecretBytes, domain: [UInt8]) throws -> SecretBytes {
        SodiumRuntime.ensureInitialized()
        guard domain.count >= Int(crypto_generichash_KEYBYTES_MIN), domain.count <= Int(crypto_generichash_KEYBYTES_MAX) else {
            throw SodiumError(.invalidArgument, "A hash domain label must be 16 to 64 bytes.")
        }
        let out = try SecretBytes(zeroedCount: 32)
        out.withUnsafeMutableBytes { digest in
            secret.withUnsafeBytes { input in
                _ = crypto_generichash(digest.baseAddress!.assumingMemoryBound(to: UInt8.self), 32, input.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(input.count), domain, domain.count)
            }
        }
        return out
    }

    /// A 32-byte digest of public bytes keyed with a secret key of 16 to 64 bytes (a MAC: only a
    /// holder of the key can make it), the key never leaving guarded memory.
    public static func keyedHash(_ bytes: [UInt8], key: SecretBytes) throws -> [UInt8] {
        SodiumRuntime.ensureInitialized()
        guard key.count >= Int(crypto_generichash_KEYBYTES_MIN), key.count <= Int(crypto_generichash_KEYBYTES_MAX) else {
            throw SodiumError(.invalidArgument, "A hash key must be 16 to 64 bytes.")
        }
        var out = [UInt8](repeating: 0, count: 32)
        let status = key.withUnsafeBytes { keyBytes in
            crypto_generichash(&out, 32, bytes, UInt64(bytes.count), keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), keyBytes.count)
        }
        precondition(status == 0, "crypto_generichash failed for valid arguments")
        return out
    }
}
