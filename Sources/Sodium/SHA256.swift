internal import CSodium

/// SHA-256 and HMAC-SHA-256 (`crypto_hash_sha256`, `crypto_auth_hmacsha256`), for protocols that
/// name them (S3's Signature Version 4). Sealing and hashing of our own use BLAKE2b and
/// XChaCha20-Poly1305 instead.
public enum SHA256 {
    /// The digest of public bytes.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        SodiumRuntime.ensureInitialized()
        var out = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = bytes.withUnsafeBytes { crypto_hash_sha256(&out, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64($0.count)) }
        return out
    }

    /// HMAC-SHA-256 of `message` under `key` (any length), in guarded memory: in a key
    /// derivation chain each result is the next key.
    public static func hmac(_ message: [UInt8], key: SecretBytes) throws -> SecretBytes {
        SodiumRuntime.ensureInitialized()
        guard key.count > 0 else { throw SodiumError(.invalidArgument, "An HMAC key must not be empty.") }
        let out = try SecretBytes(zeroedCount: Int(crypto_auth_hmacsha256_BYTES))
        var state = crypto_auth_hmacsha256_state()
        key.withUnsafeBytes { keyBytes in
            _ = crypto_auth_hmacsha256_init(&state, keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), keyBytes.count)
        }
        if !message.isEmpty {
            _ = message.withUnsafeBytes { crypto_auth_hmacsha256_update(&state, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64($0.count)) }
        }
        out.withUnsafeMutableBytes { _ = crypto_auth_hmacsha256_final(&state, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        sodium_memzero(&state, MemoryLayout<crypto_auth_hmacsha256_state>.size)
        return out
    }

    /// Lowercase hexadecimal, as the protocols print digests. Inlinable, so each caller gets a
    /// copy for its own sequence type: the generic one instantiates type metadata at run time,
    /// a cost every command that names an agent socket would pay at start.
    @inlinable
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: text, as: UTF8.self)
    }
}
