import ConfigTrack
import KeyFormats

/// Checks a PEM private key (PKCS#1 RSA, SEC 1 EC, DSA, PKCS#8) against the public key line that
/// must accompany it, since these formats do not name the SSH key type.
///
/// The key type must fit the block; where the DER carries the public key in the clear (RSA
/// modulus and exponent, EC point), it must be the same key. Only public fields are compared;
/// private fields stay in guarded memory and are skipped over.
enum PEMPrivateKey {
    private static let ecdsaTypes: [KeyType] = [.ecdsaP256, .ecdsaP384, .ecdsaP521]
    private static let softwareTypes: [KeyType] = [.rsa, .dsa, .ed25519] + ecdsaTypes

    // Object identifier contents (without tag and length).
    private static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    private static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    private static let dsaAlgorithm: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x38, 0x04, 0x01]
    private static let ed25519Algorithm: [UInt8] = [0x2B, 0x65, 0x70]
    private static let curves: [([UInt8], KeyType)] = [
        ([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07], .ecdsaP256),
        ([0x2B, 0x81, 0x04, 0x00, 0x22], .ecdsaP384),
        ([0x2B, 0x81, 0x04, 0x00, 0x23], .ecdsaP521),
    ]

    /// Checks `armor` against `publicKey` and returns whether the private key is encrypted.
    /// Throws `mismatch` when the public key is of another type or another key.
    static func check(_ armor: PEMArmor, publicKey: PublicKeyLine, mismatch: KeyFileDefect) throws -> Bool {
        let encrypted = armor.isLegacyEncrypted
        try armor.decoded.withUnsafeBytes { der in
            switch armor.label {
            case "RSA PRIVATE KEY":
                try require(publicKey, [.rsa], mismatch)
                if !encrypted { try checkRSA(der, publicKey, mismatch) }
            case "EC PRIVATE KEY":
                try require(publicKey, ecdsaTypes, mismatch)
                if !encrypted { try checkEC(der, outerCurve: nil, publicKey, mismatch) }
            case "DSA PRIVATE KEY":
                try require(publicKey, [.dsa], mismatch)
                if !encrypted { try checkDSA(der, publicKey, mismatch) }
            case "PRIVATE KEY":
                try require(publicKey, softwareTypes, mismatch)
                if !encrypted { try checkPKCS8(der, publicKey, mismatch) }
            case "ENCRYPTED PRIVATE KEY":
                try require(publicKey, softwareTypes, mismatch)
                // EncryptedPrivateKeyInfo ::= SEQUENCE { AlgorithmIdentifier, OCTET STRING }
                var outer = DERReader(der)
                var info = try outer.enter(DERReader.sequence)
                _ = try info.read(DERReader.sequence)
                _ = try info.read(DERReader.octetString)
                guard outer.isAtEnd, info.isAtEnd else { throw KeyFileDefect("its encrypted PKCS#8 structure is malformed") }
            default:
                throw KeyFileDefect("its PEM block is not a kind of private key SSH can use")
            }
        }
        return encrypted || armor.label == "ENCRYPTED PRIVATE KEY"
    }

    private static func require(_ publicKey: PublicKeyLine, _ types: [KeyType], _ mismatch: KeyFileDefect) throws {
        guard types.contains(publicKey.keyType) else { throw mismatch }
    }

    /// RSAPrivateKey ::= SEQUENCE { version, n, e, d, p, q, … }; the SSH blob holds e, n.
    private static func checkRSA(_ der: UnsafeRawBufferPointer, _ publicKey: PublicKeyLine, _ mismatch: KeyFileDefect) throws {
        var outer = DERReader(der)
        var key = try outer.enter(DERReader.sequence)
        guard outer.isAtEnd else { throw KeyFileDefect("it holds data after its RSA key") }
        _ = try key.read(DERReader.integer)
        let modulus = try key.read(DERReader.integer)
        let exponent = try key.read(DERReader.integer)
        try compareIntegers([exponent, modulus], publicKey, mismatch)
    }

    /// DSAPrivateKey ::= SEQUENCE { version, p, q, g, y, x }; the SSH blob holds p, q, g, y.
    private static func checkDSA(_ der: UnsafeRawBufferPointer, _ publicKey: PublicKeyLine, _ mismatch: KeyFileDefect) throws {
        var outer = DERReader(der)
        var key = try outer.enter(DERReader.sequence)
        guard outer.isAtEnd else { throw KeyFileDefect("it holds data after its DSA key") }
        _ = try key.read(DERReader.integer)
        var publicFields: [UnsafeRawBufferPointer] = []
        for _ in 0..<4 { publicFields.append(try key.read(DERReader.integer)) }
        try compareIntegers(publicFields, publicKey, mismatch)
    }

    /// ECPrivateKey ::= SEQUENCE { version, OCTET STRING d, [0] curve OID OPTIONAL,
    /// [1] BIT STRING point OPTIONAL }; the SSH blob holds the curve name and the point.
    private static func checkEC(_ der: UnsafeRawBufferPointer, outerCurve: UnsafeRawBufferPointer?,
                                _ publicKey: PublicKeyLine, _ mismatch: KeyFileDefect) throws {
        var outer = DERReader(der)
        var key = try outer.enter(DERReader.sequence)
        guard outer.isAtEnd else { throw KeyFileDefect("it holds data after its EC key") }
        _ = try key.read(DERReader.integer)
        _ = try key.read(DERReader.octetString)
        var curve = outerCurve
        var point: UnsafeRawBufferPointer?
        if key.nextTag == 0xA0 {
            var parameters = try key.enter(0xA0)
            curve = try parameters.read(DERReader.objectIdentifier)
        }
        if key.nextTag == 0xA1 {
            var wrapper = try key.enter(0xA1)
            let bits = try wrapper.read(DERReader.bitString)
            // The first content byte counts unused bits; a point has none.
            guard bits.first == 0 else { throw KeyFileDefect("its EC public point is malformed") }
            point = UnsafeRawBufferPointer(rebasing: bits.dropFirst())
        }
        guard let curve else { throw KeyFileDefect("its EC key does not name its curve") }
        guard let curveType = curves.first(where: { $0.0.elementsEqual(curve) })?.1 else {
            throw KeyFileDefect("its EC key uses a curve SSH does not support")
        }
        guard curveType == publicKey.keyType else { throw mismatch }
        guard let point else { return }
        let matches = publicKey.blob.withUnsafeBytes { blob -> Bool in
            var reader = SSHWireReader(blob)
            guard (try? reader.readString()) != nil, (try? reader.readString()) != nil,
                  let publicPoint = try? reader.readString()
            else { return false }
            return publicPoint.elementsEqual(point)
        }
        guard matches else { throw mismatch }
    }

    /// PrivateKeyInfo ::= SEQUENCE { version, AlgorithmIdentifier, OCTET STRING key, … }
    private static func checkPKCS8(_ der: UnsafeRawBufferPointer, _ publicKey: PublicKeyLine, _ mismatch: KeyFileDefect) throws {
        var outer = DERReader(der)
        var info = try outer.enter(DERReader.sequence)
        guard outer.isAtEnd else { throw KeyFileDefect("it holds data after its PKCS#8 key") }
        _ = try info.read(DERReader.integer)
        var algorithm = try info.enter(DERReader.sequence)
        let oid = try algorithm.read(DERReader.objectIdentifier)
        let inner = try info.read(DERReader.octetString)
        if oid.elementsEqual(rsaEncryption) {
            try require(publicKey, [.rsa], mismatch)
            try checkRSA(inner, publicKey, mismatch)
        } else if oid.elementsEqual(ecPublicKey) {
            try require(publicKey, ecdsaTypes, mismatch)
            let curve = algorithm.nextTag == DERReader.objectIdentifier ? try algorithm.read(DERReader.objectIdentifier) : nil
            try checkEC(inner, outerCurve: curve, publicKey, mismatch)
        } else if oid.elementsEqual(ed25519Algorithm) {
            // The seed alone is stored; deriving the public key is left to OpenSSH.
            try require(publicKey, [.ed25519], mismatch)
        } else if oid.elementsEqual(dsaAlgorithm) {
            try require(publicKey, [.dsa], mismatch)
        } else {
            throw KeyFileDefect("its PKCS#8 key algorithm is not one SSH can use")
        }
    }

    /// Compares DER integers with the `mpint`s that follow the type name in the SSH blob.
    private static func compareIntegers(_ integers: [UnsafeRawBufferPointer], _ publicKey: PublicKeyLine,
                                        _ mismatch: KeyFileDefect) throws {
        let matches = publicKey.blob.withUnsafeBytes { blob -> Bool in
            var reader = SSHWireReader(blob)
            guard (try? reader.readString()) != nil else { return false }
            for integer in integers {
                guard let mpint = try? reader.readString(),
                      DERReader.magnitude(mpint).elementsEqual(DERReader.magnitude(integer))
                else { return false }
            }
            return true
        }
        guard matches else { throw mismatch }
    }
}
