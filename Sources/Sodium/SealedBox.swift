internal import CSodium

/// Authenticated encryption with XChaCha20-Poly1305-IETF in a labelled, versioned envelope.
///
/// Layout of a sealed blob:
///
///     "CV" | version (1) | purpose tag | nonce (24) | ciphertext | Poly1305 tag (16)
///
/// The associated data authenticated with every blob is the 4-byte header, the purpose label, a
/// zero byte, and the caller's context (for example a reference key and version). A blob moved to
/// another name, re-labelled, or altered in any byte fails to open.
/// The corresponding C functions are `crypto_aead_xchacha20poly1305_ietf_encrypt` and `_decrypt`.
public enum SealedBox {
    /// The format version written by this build.
    public static let formatVersion: UInt8 = 1
    static let magic: [UInt8] = [0x43, 0x56]  // "CV"
    static let headerCount = 4
    public static let keyCount = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    static let nonceCount = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    static let tagCount = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)
    /// Bytes a sealed blob adds to its plaintext.
    public static var overhead: Int { headerCount + nonceCount + tagCount }

    /// Seals secret bytes.
    public static func seal(_ secret: SecretBytes, key: SecretBytes, purpose: SealPurpose, context: [UInt8]) throws -> [UInt8] {
        try secret.withUnsafeBytes { plain in
            try seal(plain, key: key, purpose: purpose, context: context)
        }
    }

    /// Seals non-secret bytes (the result is as confidential as if they were secret).
    public static func seal(_ bytes: [UInt8], key: SecretBytes, purpose: SealPurpose, context: [UInt8]) throws -> [UInt8] {
        try bytes.withUnsafeBytes { plain in
            try seal(plain, key: key, purpose: purpose, context: context)
        }
    }

    /// Seals `plaintext` under `key` with a fresh random nonce.
    public static func seal(_ plaintext: UnsafeRawBufferPointer, key: SecretBytes, purpose: SealPurpose, context: [UInt8]) throws -> [UInt8] {
        SodiumRuntime.ensureInitialized()
        var nonce = [UInt8](repeating: 0, count: nonceCount)
        randombytes_buf(&nonce, nonceCount)
        let header = magic + [formatVersion, purpose.tag]
        let sealed = try xchachaEncrypt(plaintext, associatedData: associatedData(header: header, purpose: purpose, context: context), nonce: nonce, key: key)
        return header + nonce + sealed
    }

    /// Opens a blob sealed for `purpose` and `context`; the plaintext lands in guarded memory.
    public static func open(_ blob: [UInt8], key: SecretBytes, purpose: SealPurpose, context: [UInt8]) throws -> SecretBytes {
        SodiumRuntime.ensureInitialized()
        // Check the exact framing before touching the cipher.
        guard blob.count >= overhead else {
            throw SodiumError(.malformed, "Sealed data is too short (\(blob.count) bytes) to be a \(purpose.label) blob.")
        }
        guard blob[0] == magic[0], blob[1] == magic[1] else {
            throw SodiumError(.malformed, "Sealed data does not start with the CredentialVault header.")
        }
        guard blob[2] == formatVersion else {
            throw SodiumError(.unsupportedVersion, "Sealed data uses format version \(blob[2]); this build reads version \(formatVersion).")
        }
        guard blob[3] == purpose.tag else {
            throw SodiumError(.wrongPurpose, "Sealed data was made for another purpose than \(purpose.label).")
        }
        let header = Array(blob[0..<headerCount])
        let nonce = Array(blob[headerCount..<(headerCount + nonceCount)])
        return try blob.withUnsafeBytes { raw in
            try xchachaDecrypt(UnsafeRawBufferPointer(rebasing: raw[(headerCount + nonceCount)...]),
                               associatedData: associatedData(header: header, purpose: purpose, context: context), nonce: nonce, key: key, label: purpose.label)
        }
    }

    static func associatedData(header: [UInt8], purpose: SealPurpose, context: [UInt8]) -> [UInt8] {
        header + Array(purpose.label.utf8) + [0] + context
    }

    /// The bare primitive: ciphertext followed by the tag. Exposed to tests for known answers.
    static func xchachaEncrypt(_ plaintext: UnsafeRawBufferPointer, associatedData: [UInt8], nonce: [UInt8], key: SecretBytes) throws -> [UInt8] {
        guard key.count == keyCount else { throw SodiumError(.invalidArgument, "An XChaCha20-Poly1305 key must be \(keyCount) bytes, not \(key.count).") }
        guard nonce.count == nonceCount else { throw SodiumError(.invalidArgument, "An XChaCha20-Poly1305 nonce must be \(nonceCount) bytes.") }
        var output = [UInt8](repeating: 0, count: plaintext.count + tagCount)
        var written: UInt64 = 0
        let status = key.withUnsafeBytes { keyBytes in
            crypto_aead_xchacha20poly1305_ietf_encrypt(
                &output, &written,
                plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(plaintext.count),
                associatedData, UInt64(associatedData.count),
                nil, nonce, keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        // Encryption cannot fail for valid sizes; a failure here is a broken library.
        precondition(status == 0 && Int(written) == output.count, "crypto_aead_xchacha20poly1305_ietf_encrypt failed")
        return output
    }

    static func xchachaDecrypt(_ cipher: UnsafeRawBufferPointer, associatedData: [UInt8], nonce: [UInt8], key: SecretBytes, label: String) throws -> SecretBytes {
        guard key.count == keyCount else { throw SodiumError(.invalidArgument, "An XChaCha20-Poly1305 key must be \(keyCount) bytes, not \(key.count).") }
        guard nonce.count == nonceCount, cipher.count >= tagCount else { throw SodiumError(.malformed, "Sealed \(label) data is truncated.") }
        let plain = try SecretBytes(zeroedCount: cipher.count - tagCount)
        var written: UInt64 = 0
        let status = plain.withUnsafeMutableBytes { out in
            key.withUnsafeBytes { keyBytes in
                crypto_aead_xchacha20poly1305_ietf_decrypt(
                    out.baseAddress!.assumingMemoryBound(to: UInt8.self), &written, nil,
                    cipher.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(cipher.count),
                    associatedData, UInt64(associatedData.count),
                    nonce, keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard status == 0 else {
            throw SodiumError(.authenticationFailed, "Sealed \(label) data failed authentication: wrong key, wrong name, or altered bytes.")
        }
        return plain
    }
}
