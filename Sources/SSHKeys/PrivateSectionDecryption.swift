internal import CCrypto
import KeyFormats
import Sodium

/// Decrypts the private section of an encrypted `openssh-key-v1` key into guarded memory, as
/// OpenSSH's `private2_decrypt` does: bcrypt_pbkdf turns the passphrase into key ‖ IV for the
/// envelope's cipher, which decrypts the section (checking the tag of an AEAD cipher).
///
/// AES and 3DES go through OpenSSL's EVP; ChaCha20-Poly1305 through libsodium, so an Ed25519
/// key encrypted with it opens without libcrypto. A tag that does not verify means the wrong
/// passphrase, as in OpenSSH.
enum PrivateSectionDecryption {
    /// OpenSSH's cipher names and OpenSSL's. Every cipher but `none` and ChaCha20-Poly1305.
    private static let openSSLNames = [
        "3des-cbc": "DES-EDE3-CBC",
        "aes128-cbc": "AES-128-CBC", "aes192-cbc": "AES-192-CBC", "aes256-cbc": "AES-256-CBC",
        "aes128-ctr": "AES-128-CTR", "aes192-ctr": "AES-192-CTR", "aes256-ctr": "AES-256-CTR",
        "aes128-gcm@openssh.com": "AES-128-GCM", "aes256-gcm@openssh.com": "AES-256-GCM",
    ]
    private static let chaChaPoly = "chacha20-poly1305@openssh.com"

    /// The plaintext of `envelope`'s private section, which must be encrypted.
    static func decrypt(_ envelope: OpenSSHKeyEnvelope, passphrase: SecretBytes) throws -> SecretBytes {
        let cipher = envelope.cipher
        guard envelope.rounds <= BcryptPBKDF.maximumRounds else {
            throw SSHKeyError.opening(.unsupported, "its passphrase is stretched with more bcrypt rounds than the \(BcryptPBKDF.maximumRounds) accepted")
        }
        guard envelope.salt.count <= BcryptPBKDF.maximumSaltCount else {
            throw SSHKeyError.opening(.malformed, "its bcrypt salt is longer than \(BcryptPBKDF.maximumSaltCount) bytes")
        }
        let material = try BcryptPBKDF.derive(passphrase: passphrase, salt: envelope.salt, rounds: envelope.rounds,
                                              count: cipher.keyLength + cipher.ivLength)
        let plaintext = try SecretBytes(zeroedCount: envelope.privateSection.count)
        try material.withUnsafeBytes { material in
            let key = UnsafeRawBufferPointer(rebasing: material.prefix(cipher.keyLength))
            let iv = UnsafeRawBufferPointer(rebasing: material.dropFirst(cipher.keyLength))
            try plaintext.withUnsafeMutableBytes { output in
                if cipher.name == chaChaPoly {
                    try openChaChaPoly(envelope.privateSection, tag: envelope.tag, key: key, into: output)
                } else if let name = openSSLNames[cipher.name] {
                    try LibCrypto.call({ SSHKeyError.opening(.malformed, "its private part does not decrypt (\($0))") }) { error, length in
                        ccrypto_decrypt(name, key.baseAddress?.assumingMemoryBound(to: UInt8.self), key.count,
                                        iv.baseAddress?.assumingMemoryBound(to: UInt8.self), iv.count,
                                        envelope.privateSection.baseAddress?.assumingMemoryBound(to: UInt8.self), envelope.privateSection.count,
                                        envelope.tag.baseAddress?.assumingMemoryBound(to: UInt8.self), envelope.tag.count,
                                        output.baseAddress?.assumingMemoryBound(to: UInt8.self), error, length)
                    }
                } else {
                    throw SSHKeyError.opening(.unsupported, "it is encrypted with a cipher this build cannot decrypt")
                }
            }
        }
        return plaintext
    }

    /// OpenSSH's ChaCha20-Poly1305 (`PROTOCOL.chacha20poly1305`, `cipher-chachapoly.c`) with
    /// sequence number 0 and no length header, as for key files: the first 64 bytes of the
    /// derived material are the main key and the (unused) header key; the nonce is the sequence
    /// number; block 0 of the main key's stream is Poly1305's one-time key, checked over the
    /// ciphertext before anything is decrypted from block 1 on.
    private static func openChaChaPoly(_ ciphertext: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
                                       into output: UnsafeMutableRawBufferPointer) throws {
        let mainKey = UnsafeRawBufferPointer(rebasing: key.prefix(ChaCha20.keyCount))
        let nonce = [UInt8](repeating: 0, count: ChaCha20.nonceCount)
        let polyKey = try SecretBytes(zeroedCount: Poly1305.keyCount)
        polyKey.withUnsafeMutableBytes { ChaCha20.xor(UnsafeRawBufferPointer($0), into: $0, nonce: nonce, counter: 0, key: mainKey) }
        guard polyKey.withUnsafeBytes({ Poly1305.verify(tag, of: ciphertext, key: $0) }) else { throw SSHKeyError.wrongPassphrase }
        ChaCha20.xor(ciphertext, into: output, nonce: nonce, counter: 1, key: mainKey)
    }
}
