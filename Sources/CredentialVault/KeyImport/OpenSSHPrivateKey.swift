import ConfigTrack
import KeyFormats
import Sodium

/// What can be read from an `openssh-key-v1` private key without its passphrase.
///
/// The envelope (`OpenSSHKeyEnvelope`) holds the public blob in the clear even when the private
/// section is encrypted. When the cipher is `none`, the private section is read too
/// (`OpenSSHPrivateSection`): it must be consistent with the public blob, and it yields the
/// key's comment.
struct OpenSSHPrivateKey {
    let keyType: KeyType
    /// The public key blob (public data; copied out of guarded memory).
    let publicBlob: [UInt8]
    let isEncrypted: Bool
    /// The comment stored in the private section, for unencrypted keys that have one.
    let comment: String?

    /// Parses the decoded body of an `OPENSSH PRIVATE KEY` PEM block.
    init(decoded: SecretBytes) throws {
        self = try decoded.withUnsafeBytes { try Self.parse($0) }
    }

    private init(keyType: KeyType, publicBlob: [UInt8], isEncrypted: Bool, comment: String?) {
        self.keyType = keyType
        self.publicBlob = publicBlob
        self.isEncrypted = isEncrypted
        self.comment = comment
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer) throws -> OpenSSHPrivateKey {
        let envelope = try OpenSSHKeyEnvelope(parsing: bytes)
        let keyType = try Self.keyType(ofBlob: envelope.publicBlob)
        var comment: String?
        if !envelope.isEncrypted {
            let section = try OpenSSHPrivateSection(parsing: envelope.privateSection, publicBlob: envelope.publicBlob,
                                                    checkFailure: KeyFileDefect("its check numbers differ (the key is corrupt)"))
            comment = PublicKeyLine.displayableComment(String(decoding: section.comment, as: UTF8.self))
        }
        return OpenSSHPrivateKey(keyType: keyType, publicBlob: envelope.publicBlob, isEncrypted: envelope.isEncrypted, comment: comment)
    }

    /// The supported key type a public key blob begins with.
    static func keyType(ofBlob blob: [UInt8]) throws -> KeyType {
        guard let keyType = KeyType(rawValue: try SSHWireReader.typeName(of: blob)) else {
            throw KeyFileDefect("its key type is not supported",
                                hint: "supported types: \(KeyType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        try keyType.checkPublicBlob(blob)
        return keyType
    }
}
