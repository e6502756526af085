import ConfigTrack
import KeyFormats

extension KeyType {
    /// Checks that `blob` is a well-formed SSH public key blob of this type (RFC 4253 §6.6,
    /// RFC 5656 §3.1, RFC 8709 §4, OpenSSH `PROTOCOL.u2f`): the right fields, sizes and curve, and
    /// nothing after them. A key imported from an encrypted file is known only by this blob, so
    /// it must be usable as it stands.
    func checkPublicBlob(_ blob: [UInt8]) throws {
        let malformed = KeyFileDefect("its public key data is malformed")
        try blob.withUnsafeBytes { bytes in
            var reader = SSHWireReader(bytes)
            guard try reader.readName() == rawValue else { throw malformed }
            switch self {
            case .ed25519, .ed25519SecurityKey:
                guard try reader.readString().count == 32 else { throw malformed }
            case .ecdsaP256, .ecdsaP384, .ecdsaP521, .ecdsaSecurityKey:
                guard let (curve, pointLength) = curve, try reader.readName() == curve else { throw malformed }
                let point = try reader.readString()
                guard point.count == pointLength, point.first == 0x04 else { throw malformed }
            case .rsa, .dsa:
                // e, n for RSA; p, q, g, y for DSA: positive mpints.
                for _ in 0..<(self == .rsa ? 2 : 4) {
                    let mpint = try reader.readString()
                    guard let first = mpint.first, first < 0x80 else { throw malformed }
                }
            }
            if self == .ed25519SecurityKey || self == .ecdsaSecurityKey {
                _ = try reader.readString()  // application, e.g. "ssh:"
            }
            guard reader.isAtEnd else { throw malformed }
        }
    }

    /// The curve name in ECDSA blobs and the length of an uncompressed point on it.
    private var curve: (String, Int)? {
        switch self {
        case .ecdsaP256, .ecdsaSecurityKey: ("nistp256", 65)
        case .ecdsaP384: ("nistp384", 97)
        case .ecdsaP521: ("nistp521", 133)
        case .ed25519, .ed25519SecurityKey, .rsa, .dsa: nil
        }
    }
}
