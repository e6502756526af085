internal import CSodium

/// The bare libsodium XChaCha20-Poly1305 calls, as the baseline `SealedBox` is compared with.
///
/// This is the only file outside `Sodium` that imports CSodium, and only because a baseline must
/// bypass the wrapper. Buffers are allocated once by the caller, so the numbers are the
/// cipher's cost alone. The corresponding C functions are
/// `crypto_aead_xchacha20poly1305_ietf_encrypt` and `_decrypt`.
enum RawAEAD {
    static let keyCount = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    static let nonceCount = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    static let tagCount = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)

    static func initialize() {
        precondition(sodium_init() >= 0, "sodium_init failed")
    }

    /// Fills `nonce` with fresh random bytes, as every real seal must. (`randombytes_buf`)
    static func randomize(_ nonce: inout [UInt8]) {
        randombytes_buf(&nonce, nonce.count)
    }

    /// Encrypts `plain` into `cipher` (plain.count + tag bytes).
    static func encrypt(_ cipher: inout [UInt8], _ plain: [UInt8], associatedData: [UInt8], nonce: [UInt8], key: [UInt8]) {
        var written: UInt64 = 0
        let status = crypto_aead_xchacha20poly1305_ietf_encrypt(
            &cipher, &written, plain, UInt64(plain.count), associatedData, UInt64(associatedData.count), nil, nonce, key)
        precondition(status == 0, "crypto_aead_xchacha20poly1305_ietf_encrypt failed")
    }

    /// Decrypts `cipher` into `plain`; false if authentication fails.
    static func decrypt(_ plain: inout [UInt8], _ cipher: [UInt8], associatedData: [UInt8], nonce: [UInt8], key: [UInt8]) -> Bool {
        var written: UInt64 = 0
        return crypto_aead_xchacha20poly1305_ietf_decrypt(
            &plain, &written, nil, cipher, UInt64(cipher.count), associatedData, UInt64(associatedData.count), nonce, key) == 0
    }
}
