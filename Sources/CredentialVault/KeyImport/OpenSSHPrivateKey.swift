import ConfigTrack
import KeyFormats
import Sodium

/// What can be read from an `openssh-key-v1` private key without its passphrase.
///
/// Layout (OpenSSH `PROTOCOL.key`): `"openssh-key-v1\0"`, string ciphername, string kdfname,
/// string kdfoptions, uint32 N, N × string public key blob, string private section, and for
/// AEAD ciphers an authentication tag. The public blob is never encrypted. When the cipher is
/// `none`, the private section is read too: it must be consistent with the public blob, and it
/// yields the key's comment.
struct OpenSSHPrivateKey {
    let keyType: KeyType
    /// The public key blob (public data; copied out of guarded memory).
    let publicBlob: [UInt8]
    let isEncrypted: Bool
    /// The comment stored in the private section, for unencrypted keys that have one.
    let comment: String?

    /// The ciphers OpenSSH can encrypt a key with: block size and authentication tag length.
    private static let ciphers: [String: (blockSize: Int, tagLength: Int)] = [
        "none": (8, 0),
        "3des-cbc": (8, 0),
        "aes128-cbc": (16, 0), "aes192-cbc": (16, 0), "aes256-cbc": (16, 0),
        "aes128-ctr": (16, 0), "aes192-ctr": (16, 0), "aes256-ctr": (16, 0),
        "aes128-gcm@openssh.com": (16, 16), "aes256-gcm@openssh.com": (16, 16),
        "chacha20-poly1305@openssh.com": (8, 16),
    ]
    private static let magic = Array("openssh-key-v1\0".utf8)

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
        guard bytes.starts(with: magic) else { throw KeyFileDefect("its OpenSSH key data does not start with 'openssh-key-v1'") }
        var reader = SSHWireReader(bytes)
        try reader.skip(magic.count)
        let cipherName = try reader.readName()
        let kdfName = try reader.readName()
        let kdfOptions = try reader.readString()
        let keyCount = try reader.readUInt32()
        guard keyCount == 1 else {
            throw KeyFileDefect(keyCount == 0 ? "it holds no key" : "it holds more than one key",
                                hint: "give a file holding exactly one private key")
        }
        let publicBlob = try reader.readPublicBytes()
        let keyType = try Self.keyType(ofBlob: publicBlob)
        guard let cipher = ciphers[cipherName] else {
            throw KeyFileDefect("it is encrypted with a cipher OpenSSH does not support")
        }
        let isEncrypted = cipherName != "none"
        try checkKDF(name: kdfName, options: kdfOptions, isEncrypted: isEncrypted)
        let privateSection = try reader.readString()
        guard privateSection.count >= cipher.blockSize, privateSection.count % cipher.blockSize == 0,
              reader.remaining == cipher.tagLength
        else {
            throw KeyFileDefect.truncated
        }
        let comment = isEncrypted ? nil : try readComment(privateSection, keyType: keyType, publicBlob: publicBlob)
        return OpenSSHPrivateKey(keyType: keyType, publicBlob: publicBlob, isEncrypted: isEncrypted, comment: comment)
    }

    /// The supported key type a public key blob begins with.
    static func keyType(ofBlob blob: [UInt8]) throws -> KeyType {
        guard let keyType = KeyType(rawValue: try PublicKeyLine.blobType(blob)) else {
            throw KeyFileDefect("its key type is not supported",
                                hint: "supported types: \(KeyType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        try keyType.checkPublicBlob(blob)
        return keyType
    }

    /// Unencrypted keys use KDF `none` with no options; encrypted ones `bcrypt` with a salt and rounds.
    private static func checkKDF(name: String, options: UnsafeRawBufferPointer, isEncrypted: Bool) throws {
        guard isEncrypted else {
            guard name == "none", options.isEmpty else { throw KeyFileDefect("its key derivation settings are inconsistent") }
            return
        }
        guard name == "bcrypt" else { throw KeyFileDefect("it uses a key derivation function OpenSSH does not support") }
        var reader = SSHWireReader(options)
        let salt = try reader.readString()
        let rounds = try reader.readUInt32()
        guard !salt.isEmpty, rounds > 0, reader.isAtEnd else { throw KeyFileDefect("its key derivation settings are malformed") }
    }

    /// Checks an unencrypted private section and returns its comment.
    ///
    /// Layout: uint32 checkint ×2, string keytype, the type's key fields, string comment,
    /// padding 1, 2, 3, …. The key fields are skipped over in place; nothing secret is copied.
    private static func readComment(_ section: UnsafeRawBufferPointer, keyType: KeyType, publicBlob: [UInt8]) throws -> String? {
        var reader = SSHWireReader(section)
        let check1 = try reader.readUInt32()
        let check2 = try reader.readUInt32()
        guard check1 == check2 else {
            throw KeyFileDefect("its check numbers differ (the key is corrupt)")
        }
        let fieldsStart = reader.offset
        guard try reader.readName() == keyType.rawValue else {
            throw KeyFileDefect("its private part does not match its public part")
        }
        switch keyType {
        case .rsa:
            // The public blob holds e, n; the private section n, e, d, iqmp, p, q.
            let modulus = try reader.readString()
            let exponent = try reader.readString()
            let matches = publicBlob.withUnsafeBytes { blob -> Bool in
                var publicReader = SSHWireReader(blob)
                guard (try? publicReader.readString()) != nil,
                      let publicExponent = try? publicReader.readString(),
                      let publicModulus = try? publicReader.readString()
                else { return false }
                return publicExponent.elementsEqual(exponent) && publicModulus.elementsEqual(modulus)
            }
            guard matches else { throw KeyFileDefect("its private part does not match its public part") }
            for _ in 0..<4 { _ = try reader.readString() }
        case .ed25519, .ecdsaP256, .ecdsaP384, .ecdsaP521, .dsa, .ed25519SecurityKey, .ecdsaSecurityKey:
            // For these types the private section repeats the public blob, then adds private fields.
            try reader.skip(publicBlob.count - 4 - keyType.rawValue.utf8.count)
            let repeated = UnsafeRawBufferPointer(rebasing: section[fieldsStart..<reader.offset])
            guard repeated.elementsEqual(publicBlob) else {
                throw KeyFileDefect("its private part does not match its public part")
            }
            try skipPrivateFields(of: keyType, reader: &reader)
        }
        let commentBytes = try reader.readString()
        var expectedPad: UInt8 = 1
        while !reader.isAtEnd {
            guard try reader.readUInt8() == expectedPad else { throw KeyFileDefect("its private part has bad padding (the key is corrupt)") }
            expectedPad &+= 1
        }
        return PublicKeyLine.displayableComment(String(decoding: commentBytes, as: UTF8.self))
    }

    /// Skips the fields that follow the repeated public part in the private section.
    private static func skipPrivateFields(of keyType: KeyType, reader: inout SSHWireReader) throws {
        switch keyType {
        case .ed25519:
            guard try reader.readString().count == 64 else { throw KeyFileDefect("its Ed25519 private key has the wrong length") }
        case .ecdsaP256, .ecdsaP384, .ecdsaP521, .dsa:
            _ = try reader.readString()  // mpint private scalar / x
        case .ed25519SecurityKey, .ecdsaSecurityKey:
            // uint8 flags, string key handle, string reserved (the application is in the public part).
            _ = try reader.readUInt8()
            _ = try reader.readString()
            _ = try reader.readString()
        case .rsa:
            break
        }
    }
}
