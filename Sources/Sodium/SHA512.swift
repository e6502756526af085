internal import CSodium

/// SHA-512, for formats that name it: OpenSSH's bcrypt_pbkdf hashes the passphrase, the salt and
/// each round's output with it. The corresponding C function is `crypto_hash_sha512`.
public enum SHA512 {
    public static let digestCount = Int(crypto_hash_sha512_BYTES)

    /// Writes the digest of `input` into `digest`, which must be `digestCount` bytes: the caller
    /// chooses where it lives, so the digest of a secret can go straight into guarded memory.
    public static func hash(_ input: UnsafeRawBufferPointer, into digest: UnsafeMutableRawBufferPointer) {
        SodiumRuntime.ensureInitialized()
        precondition(digest.count == digestCount, "a SHA-512 digest is \(digestCount) bytes")
        _ = crypto_hash_sha512(digest.baseAddress!.assumingMemoryBound(to: UInt8.self),
                               input.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(input.count))
    }
}
