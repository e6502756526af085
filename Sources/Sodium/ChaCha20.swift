internal import CSodium

/// ChaCha20 as Bernstein first defined it, with a 64-bit nonce and a 64-bit block counter, the
/// variant OpenSSH's `chacha20-poly1305@openssh.com` is built on (not RFC 8439's 96-bit nonce).
/// The corresponding C function is `crypto_stream_chacha20_xor_ic`.
public enum ChaCha20 {
    public static let keyCount = Int(crypto_stream_chacha20_KEYBYTES)
    public static let nonceCount = Int(crypto_stream_chacha20_NONCEBYTES)

    /// XORs `input` with the keystream of `key` and `nonce`, starting at block `counter`, into
    /// `output` (of the same length; it may be `input`'s memory). Encrypts and decrypts alike.
    public static func xor(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                           nonce: [UInt8], counter: UInt64, key: UnsafeRawBufferPointer) {
        SodiumRuntime.ensureInitialized()
        precondition(key.count == keyCount && nonce.count == nonceCount && output.count == input.count,
                     "ChaCha20 takes a \(keyCount)-byte key, a \(nonceCount)-byte nonce and an output as long as its input")
        guard input.count > 0 else { return }
        _ = crypto_stream_chacha20_xor_ic(output.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                          input.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(input.count),
                                          nonce, counter, key.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }
}
