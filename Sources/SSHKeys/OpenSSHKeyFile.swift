import KeyFormats
import Sodium

/// Opens an `openssh-key-v1` private key (OpenSSH `PROTOCOL.key`) into a `Signer`.
///
/// Before any work on the passphrase: the envelope must be well-formed, its key type one that
/// can sign here, and its public blob the one the vault recorded. Then the private section is
/// decrypted into guarded memory when it is encrypted, parsed (checkints, type, fields,
/// padding, public part), and the key is rebuilt from its fields and checked against its
/// public part: Ed25519 by deriving the public key from the seed, the others by OpenSSL.
enum OpenSSHKeyFile {
    /// Security keys sign on their hardware token; the private section holds only a handle.
    private static let securityKeyTypes: Set<String> = ["sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com"]
    private static let softwareKeyTypes = Set(["ssh-ed25519", "ssh-rsa", "ssh-dss"] + ECDSACurve.all.map(\.keyType))

    /// Opens the decoded body of an `OPENSSH PRIVATE KEY` block.
    static func open(_ decoded: SecretBytes, passphrase: SecretBytes?, publicBlob: [UInt8]) throws -> (keyType: String, signer: Signer) {
        try decoded.withUnsafeBytes { bytes in
            let envelope = try OpenSSHKeyEnvelope(parsing: bytes)
            let keyType = try SSHWireReader.typeName(of: envelope.publicBlob)
            if securityKeyTypes.contains(keyType) {
                throw SSHKeyError.opening(.unsupported, "it is a security key (\(keyType)), which signs only on its hardware token; "
                                          + "use it with ssh's own agent or the token attached")
            }
            guard softwareKeyTypes.contains(keyType) else { throw SSHKeyError.opening(.unsupported, "its key type is not supported") }
            guard envelope.publicBlob == publicBlob else { throw SSHKeyError.mismatch }
            guard envelope.isEncrypted else {
                let section = try OpenSSHPrivateSection(parsing: envelope.privateSection, publicBlob: publicBlob,
                                                        checkFailure: KeyFileDefect("its check numbers differ (the key is corrupt)"))
                return (keyType, try signer(section))
            }
            guard let passphrase, passphrase.count > 0 else { throw SSHKeyError.passphraseNeeded }
            let plaintext = try PrivateSectionDecryption.decrypt(envelope, passphrase: passphrase)
            return try plaintext.withUnsafeBytes { plain in
                let section = try OpenSSHPrivateSection(parsing: plain, publicBlob: publicBlob, checkFailure: SSHKeyError.wrongPassphrase)
                return (keyType, try signer(section))
            }
        }
    }

    /// The key of a parsed section, checked against its public part.
    private static func signer(_ section: OpenSSHPrivateSection) throws -> Signer {
        let fields = section.fields
        switch section.keyType {
        case "ssh-ed25519":
            return .ed25519(try ed25519(publicKey: fields[0], secretKey: fields[1]))
        case "ssh-rsa":
            let integers = try fields.map(SSHInteger.positive)
            try SSHInteger.checkRSA(modulus: integers[0], exponent: integers[1])
            return .rsa(try checked(OpenSSLKey(rsa: integers)))
        case "ssh-dss":
            let integers = try fields.map(SSHInteger.positive)
            try SSHInteger.checkDSAOrder(integers[1])
            return .dsa(try checked(OpenSSLKey(dsa: integers)))
        default:
            // The section matched the public blob, whose curve name the type fixes.
            guard let curve = ECDSACurve.named(keyType: section.keyType), fields[0].elementsEqual(curve.sshName.utf8),
                  fields[1].count == curve.pointCount, fields[1].first == 0x04
            else {
                throw KeyFileDefect("its ECDSA public key is malformed")
            }
            let scalar = try SSHInteger.positive(fields[2])
            return .ecdsa(try checked(OpenSSLKey(group: curve.openSSLName, point: fields[1], scalar: scalar)), curve)
        }
    }

    /// Ed25519's private field is seed ‖ public key (RFC 8709 §4 stores the same pair); the
    /// public key derived from the seed must be the one recorded twice.
    private static func ed25519(publicKey: UnsafeRawBufferPointer, secretKey: UnsafeRawBufferPointer) throws -> SigningKeyPair {
        guard publicKey.count == SigningKeyPair.publicKeyCount, secretKey.count == SigningKeyPair.seedCount + SigningKeyPair.publicKeyCount else {
            throw KeyFileDefect("its Ed25519 key has the wrong length")
        }
        let pair = try SigningKeyPair(seed: try SecretBytes(copying: UnsafeRawBufferPointer(rebasing: secretKey.prefix(SigningKeyPair.seedCount))))
        guard pair.publicKey.elementsEqual(publicKey), secretKey.suffix(SigningKeyPair.publicKeyCount).elementsEqual(publicKey) else {
            throw KeyFileDefect("its Ed25519 private key does not belong to its public key")
        }
        return pair
    }

    private static func checked(_ key: OpenSSLKey) throws -> OpenSSLKey {
        try key.check()
        return key
    }
}
