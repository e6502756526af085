internal import CSodium

/// The Poly1305 one-time authenticator, for OpenSSH's `chacha20-poly1305@openssh.com`, whose
/// one-time key is the first 32 bytes of ChaCha20's keystream. The corresponding C function is
/// `crypto_onetimeauth_poly1305_verify`.
public enum Poly1305 {
    public static let keyCount = Int(crypto_onetimeauth_poly1305_KEYBYTES)
    public static let tagCount = Int(crypto_onetimeauth_poly1305_BYTES)

    /// Whether `tag` authenticates `message` under the one-time `key`; compared in constant time.
    /// A tag or key of the wrong length is simply false: the tag comes from a file.
    public static func verify(_ tag: UnsafeRawBufferPointer, of message: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) -> Bool {
        SodiumRuntime.ensureInitialized()
        guard tag.count == tagCount, key.count == keyCount else { return false }
        return crypto_onetimeauth_poly1305_verify(tag.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                  message.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(message.count),
                                                  key.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 0
    }
}
