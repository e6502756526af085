import KeyFormats
import Sodium

/// Opens an OpenSSL PEM private key — PKCS#1 `RSA PRIVATE KEY`, SEC 1 `EC PRIVATE KEY`,
/// `DSA PRIVATE KEY`, PKCS#8 `PRIVATE KEY` and `ENCRYPTED PRIVATE KEY`, and legacy encryption
/// (`Proc-Type`/`DEK-Info`) — with OpenSSL's own reader, into a `Signer`.
///
/// These formats do not name the SSH key type, so the public blob is rebuilt from what OpenSSL
/// reads and compared with the recorded one. The passphrase reaches OpenSSL as a NUL-terminated
/// copy in guarded memory; an Ed25519 seed is copied into guarded memory and signs through
/// libsodium like an OpenSSH Ed25519 key.
enum PEMKeyFile {
    static func open(_ file: SecretBytes, armor: PEMArmor, passphrase: SecretBytes?, publicBlob: [UInt8]) throws -> (keyType: String, signer: Signer) {
        guard PEMArmor.privateKeyLabels.contains(armor.label) else {
            throw KeyFileDefect("its PEM block is not a kind of private key SSH can use")
        }
        if armor.label == "ENCRYPTED PRIVATE KEY" {
            try armor.decoded.withUnsafeBytes { try PKCS8Encryption.checkCost($0) }
        }
        var terminated: SecretBytes?
        if armor.isLegacyEncrypted || armor.label == "ENCRYPTED PRIVATE KEY" {
            guard let passphrase, passphrase.count > 0 else { throw SSHKeyError.passphraseNeeded }
            // OpenSSL takes a C string; a passphrase holding NUL cannot have encrypted the file.
            guard !passphrase.withUnsafeBytes({ $0.contains(0) }) else { throw SSHKeyError.wrongPassphrase }
            terminated = try passphrase.appending(try SecretBytes(zeroedCount: 1))
        }
        let key = try file.withUnsafeBytes { pem in
            try withCString(terminated) { try OpenSSLKey(pem: pem, passphrase: $0) }
        }
        let (keyType, blob, signer) = try describe(key)
        guard blob == publicBlob else { throw SSHKeyError.mismatch }
        return (keyType, signer)
    }

    /// The SSH key type, public blob and signer of what OpenSSL read.
    private static func describe(_ key: OpenSSLKey) throws -> (String, [UInt8], Signer) {
        var blob = SSHWireWriter()
        switch key.kind {
        case .rsa:
            let (modulus, exponent) = (try key.integer("n"), try key.integer("e"))
            try SSHInteger.checkRSA(modulus: modulus, exponent: exponent)
            blob.string("ssh-rsa")
            blob.mpint(exponent)
            blob.mpint(modulus)
            try key.check()
            return ("ssh-rsa", blob.bytes, .rsa(key))
        case .ecdsa:
            let (group, point) = try key.ecPublicKey()
            guard let curve = ECDSACurve.named(openSSLName: group) else {
                throw SSHKeyError.opening(.unsupported, "its EC key is on a curve SSH does not use")
            }
            blob.string(curve.keyType)
            blob.string(curve.sshName)
            blob.string(point)
            try key.check()
            return (curve.keyType, blob.bytes, .ecdsa(key, curve))
        case .dsa:
            let order = try key.integer("q")
            try SSHInteger.checkDSAOrder(order)
            blob.string("ssh-dss")
            for field in [try key.integer("p"), order, try key.integer("g"), try key.integer("pub")] { blob.mpint(field) }
            try key.check()
            return ("ssh-dss", blob.bytes, .dsa(key))
        case .ed25519:
            let seed = try SecretBytes(zeroedCount: SigningKeyPair.seedCount)
            try seed.withUnsafeMutableBytes { try key.rawPrivateKey(into: $0) }
            let pair = try SigningKeyPair(seed: seed)
            blob.string("ssh-ed25519")
            blob.string(pair.publicKey)
            return ("ssh-ed25519", blob.bytes, .ed25519(pair))
        case .other:
            throw SSHKeyError.opening(.unsupported, "its PEM key is of an algorithm SSH does not use")
        }
    }

    private static func withCString<R>(_ secret: SecretBytes?, _ body: (UnsafePointer<CChar>?) throws -> R) throws -> R {
        guard let secret else { return try body(nil) }
        return try secret.withUnsafeBytes { try body($0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }
}
