/// A cipher OpenSSH may encrypt the private section of an `openssh-key-v1` key with, and the
/// sizes that follow from it (OpenSSH `cipher.c`): the KDF derives `keyLength + ivLength` bytes,
/// the section is a whole number of blocks, and an AEAD cipher's tag follows the section.
package struct OpenSSHCipher: Sendable, Equatable {
    package let name: String
    package let blockSize: Int
    package let keyLength: Int
    /// CBC and CTR take a block-sized IV, GCM a 12-byte nonce; ChaCha20-Poly1305 takes none (the
    /// nonce is a sequence number, 0 for key files).
    package let ivLength: Int
    /// The authentication tag after the section; 0 for ciphers without one.
    package let tagLength: Int

    /// False for `none`, the cipher of an unencrypted key.
    package var encrypts: Bool { name != "none" }

    /// Every cipher `ssh-keygen -Z` can write.
    package static let all: [OpenSSHCipher] = [
        OpenSSHCipher(name: "none", blockSize: 8, keyLength: 0, ivLength: 0, tagLength: 0),
        OpenSSHCipher(name: "3des-cbc", blockSize: 8, keyLength: 24, ivLength: 8, tagLength: 0),
        OpenSSHCipher(name: "aes128-cbc", blockSize: 16, keyLength: 16, ivLength: 16, tagLength: 0),
        OpenSSHCipher(name: "aes192-cbc", blockSize: 16, keyLength: 24, ivLength: 16, tagLength: 0),
        OpenSSHCipher(name: "aes256-cbc", blockSize: 16, keyLength: 32, ivLength: 16, tagLength: 0),
        OpenSSHCipher(name: "aes128-ctr", blockSize: 16, keyLength: 16, ivLength: 16, tagLength: 0),
        OpenSSHCipher(name: "aes192-ctr", blockSize: 16, keyLength: 24, ivLength: 16, tagLength: 0),
        OpenSSHCipher(name: "aes256-ctr", blockSize: 16, keyLength: 32, ivLength: 16, tagLength: 0),
        OpenSSHCipher(name: "aes128-gcm@openssh.com", blockSize: 16, keyLength: 16, ivLength: 12, tagLength: 16),
        OpenSSHCipher(name: "aes256-gcm@openssh.com", blockSize: 16, keyLength: 32, ivLength: 12, tagLength: 16),
        OpenSSHCipher(name: "chacha20-poly1305@openssh.com", blockSize: 8, keyLength: 64, ivLength: 0, tagLength: 16),
    ]

    /// The cipher called `name` in a key file, if OpenSSH has one by that name.
    package static func named(_ name: String) -> OpenSSHCipher? {
        all.first { $0.name == name }
    }
}
