import KeyFormats

/// Checks on the integers of a private key before OpenSSL sees them, with OpenSSH's bounds
/// (`sshbuf_get_bignum2`): an `mpint` must not be negative and holds at most 16,384 bits; a key
/// number must not be zero. RSA moduli are 1,024 to 16,384 bits (OpenSSH refuses smaller ones)
/// and public exponents at most 64 bits, as OpenSSL requires of large moduli (a huge exponent
/// would make checking each signature slow); a DSA subgroup order fits SSH's 20-byte signature
/// halves, so at most 160 bits.
enum SSHInteger {
    static let maximumBits = 16_384
    static let minimumRSABits = 1_024
    static let maximumRSAExponentBits = 64
    static let maximumDSAOrderBits = 160

    /// The magnitude of a positive `mpint` (leading zeros dropped), as a view of the same memory.
    static func positive(_ mpint: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer {
        guard mpint.first.map({ $0 < 0x80 }) ?? true else { throw KeyFileDefect("one of its numbers is negative") }
        let magnitude = UnsafeRawBufferPointer(rebasing: DERReader.magnitude(mpint))
        guard !magnitude.isEmpty else { throw KeyFileDefect("one of its numbers is zero") }
        guard bitCount(magnitude) <= maximumBits else { throw KeyFileDefect("one of its numbers is longer than \(maximumBits) bits") }
        return magnitude
    }

    /// The bit length of a big-endian magnitude without leading zero bytes.
    static func bitCount(_ magnitude: some Collection<UInt8>) -> Int {
        guard let first = magnitude.first else { return 0 }
        return (magnitude.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    }

    /// Throws `.unsupported` for an RSA modulus outside 1,024…16,384 bits or an exponent over 64.
    static func checkRSA(modulus: some Collection<UInt8>, exponent: some Collection<UInt8>) throws {
        let bits = bitCount(modulus)
        guard bits >= minimumRSABits, bits <= maximumBits else {
            throw SSHKeyError.opening(.unsupported, "its RSA modulus is \(bits) bits; SSH keys have \(minimumRSABits) to \(maximumBits)")
        }
        guard bitCount(exponent) <= maximumRSAExponentBits else {
            throw SSHKeyError.opening(.unsupported, "its RSA public exponent is longer than \(maximumRSAExponentBits) bits")
        }
    }

    /// Throws `.unsupported` for a DSA subgroup order longer than SSH's signature format holds.
    static func checkDSAOrder(_ order: some Collection<UInt8>) throws {
        guard bitCount(order) <= maximumDSAOrderBits else {
            throw SSHKeyError.opening(.unsupported, "its DSA subgroup is longer than the \(maximumDSAOrderBits) bits SSH signatures hold")
        }
    }
}
