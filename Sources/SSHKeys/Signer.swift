import KeyFormats
import Sodium

/// What makes an `SSHSigningKey`'s signatures: libsodium for Ed25519, OpenSSL for the rest.
enum Signer {
    case ed25519(SigningKeyPair)
    case rsa(OpenSSLKey)
    case ecdsa(OpenSSLKey, ECDSACurve)
    case dsa(OpenSSLKey)

    /// ssh-agent's sign request flags (draft-miller-ssh-agent §3.6.1).
    static let rsaSHA256Flag: UInt32 = 2
    static let rsaSHA512Flag: UInt32 = 4
    /// DSA signatures are r ‖ s, each 160 bits (RFC 4253 §6.6).
    private static let dsaHalfCount = 20

    /// The signature blob — string algorithm name, string signature — over `data`.
    ///
    /// RSA signs with SHA-256 when `flags` ask for it, else SHA-512 when they ask for that (the
    /// order OpenSSH's own agent checks them in), else SHA-1 as `ssh-rsa`; other types have one
    /// algorithm each and ignore `flags`. ECDSA's (r, s) and DSA's r ‖ s are rewritten from
    /// OpenSSL's DER (RFC 5656 §3.1.2, RFC 4253 §6.6).
    func sign(_ data: [UInt8], flags: UInt32, keyType: String) throws -> [UInt8] {
        var blob = SSHWireWriter()
        switch self {
        case .ed25519(let pair):
            blob.string(keyType)
            blob.string(pair.sign(data))
        case .rsa(let key):
            let (name, digest) = flags & Self.rsaSHA256Flag != 0 ? ("rsa-sha2-256", "SHA256")
                : flags & Self.rsaSHA512Flag != 0 ? ("rsa-sha2-512", "SHA512") : ("ssh-rsa", "SHA1")
            blob.string(name)
            blob.string(try key.sign(data, digest: digest))
        case .ecdsa(let key, let curve):
            let (r, s) = try Self.integers(ofDER: try key.sign(data, digest: curve.digest))
            var pair = SSHWireWriter()
            pair.mpint(r)
            pair.mpint(s)
            blob.string(keyType)
            blob.string(pair.bytes)
        case .dsa(let key):
            let (r, s) = try Self.integers(ofDER: try key.sign(data, digest: "SHA1"))
            guard r.count <= Self.dsaHalfCount, s.count <= Self.dsaHalfCount else {
                throw SSHKeyError(.unavailable, "Unable to sign: OpenSSL made a DSA signature longer than SSH's format holds.")
            }
            blob.string(keyType)
            blob.string(Self.leftPadded(r) + Self.leftPadded(s))
        }
        return blob.bytes
    }

    /// r and s from a DER `SEQUENCE { INTEGER r, INTEGER s }`, without leading zeros.
    private static func integers(ofDER signature: [UInt8]) throws -> ([UInt8], [UInt8]) {
        do {
            return try signature.withUnsafeBytes { der in
                var outer = DERReader(der)
                var sequence = try outer.enter(DERReader.sequence)
                let r = Array(DERReader.magnitude(try sequence.read(DERReader.integer)))
                let s = Array(DERReader.magnitude(try sequence.read(DERReader.integer)))
                guard sequence.isAtEnd, outer.isAtEnd else { throw KeyFileDefect.truncated }
                return (r, s)
            }
        } catch {
            throw SSHKeyError(.unavailable, "Unable to sign: OpenSSL's signature is not DER (r, s).")
        }
    }

    private static func leftPadded(_ half: [UInt8]) -> [UInt8] {
        [UInt8](repeating: 0, count: dsaHalfCount - half.count) + half
    }
}
