/// The outer layer of an `openssh-key-v1` private key, which is readable without the passphrase.
///
/// Layout (OpenSSH `PROTOCOL.key`): `"openssh-key-v1\0"`, string ciphername, string kdfname,
/// string kdfoptions, uint32 N, N × string public key blob, string private section, and for
/// AEAD ciphers an authentication tag. Exactly one key is accepted, as OpenSSH does. An
/// unencrypted key has cipher and KDF `none` and no KDF options; an encrypted one KDF `bcrypt`
/// with a salt and a round count. Nothing after the tag is allowed.
///
/// It borrows the bytes it parses: `privateSection` and `tag` are views that must stay inside
/// the `withUnsafeBytes` closure that produced them. Malformed input throws `KeyFileDefect`.
package struct OpenSSHKeyEnvelope {
    package let cipher: OpenSSHCipher
    /// bcrypt's salt (public; empty for an unencrypted key).
    package let salt: [UInt8]
    /// bcrypt's round count (0 for an unencrypted key).
    package let rounds: UInt32
    /// The public key blob, which the file never encrypts (public data; copied out).
    package let publicBlob: [UInt8]
    /// The private section: ciphertext, or plaintext when `cipher` is `none`.
    package let privateSection: UnsafeRawBufferPointer
    /// The AEAD tag, `cipher.tagLength` bytes.
    package let tag: UnsafeRawBufferPointer

    package var isEncrypted: Bool { cipher.encrypts }

    private static let magic = Array("openssh-key-v1\0".utf8)

    /// Parses the decoded body of an `OPENSSH PRIVATE KEY` PEM block.
    package init(parsing bytes: UnsafeRawBufferPointer) throws {
        guard bytes.starts(with: Self.magic) else { throw KeyFileDefect("its OpenSSH key data does not start with 'openssh-key-v1'") }
        var reader = SSHWireReader(bytes)
        try reader.skip(Self.magic.count)
        let cipherName = try reader.readName()
        let kdfName = try reader.readName()
        let kdfOptions = try reader.readString()
        let keyCount = try reader.readUInt32()
        guard keyCount == 1 else {
            throw KeyFileDefect(keyCount == 0 ? "it holds no key" : "it holds more than one key",
                                hint: "give a file holding exactly one private key")
        }
        publicBlob = try reader.readPublicBytes()
        guard let cipher = OpenSSHCipher.named(cipherName) else {
            throw KeyFileDefect("it is encrypted with a cipher OpenSSH does not support")
        }
        self.cipher = cipher
        (salt, rounds) = try Self.readKDF(name: kdfName, options: kdfOptions, isEncrypted: cipher.encrypts)
        privateSection = try reader.readString()
        guard privateSection.count >= cipher.blockSize, privateSection.count % cipher.blockSize == 0,
              reader.remaining == cipher.tagLength
        else {
            throw KeyFileDefect.truncated
        }
        tag = UnsafeRawBufferPointer(rebasing: bytes[reader.offset...])
    }

    /// Unencrypted keys use KDF `none` with no options; encrypted ones `bcrypt` with a salt and rounds.
    private static func readKDF(name: String, options: UnsafeRawBufferPointer, isEncrypted: Bool) throws -> ([UInt8], UInt32) {
        guard isEncrypted else {
            guard name == "none", options.isEmpty else { throw KeyFileDefect("its key derivation settings are inconsistent") }
            return ([], 0)
        }
        guard name == "bcrypt" else { throw KeyFileDefect("it uses a key derivation function OpenSSH does not support") }
        var reader = SSHWireReader(options)
        let salt = try reader.readPublicBytes()
        let rounds = try reader.readUInt32()
        guard !salt.isEmpty, rounds > 0, reader.isAtEnd else { throw KeyFileDefect("its key derivation settings are malformed") }
        return (salt, rounds)
    }
}
