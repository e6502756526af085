import KeyFormats

/// Bounds on the key derivation an `ENCRYPTED PRIVATE KEY` (PKCS#8, RFC 5958 §3) asks for,
/// checked before OpenSSL decrypts it.
///
/// The file names its own work factor — PBKDF2's iteration count (PBES2, RFC 8018 §6.2),
/// scrypt's N, r and p (RFC 7914 §7), or the iteration count of PKCS#5 v1.5 and PKCS#12 PBEs —
/// so a hostile file could make one open take hours. `ssh-keygen -m PKCS8` and OpenSSL write
/// PBES2 with PBKDF2 at 2,048 iterations; `openssl pkcs8 -scrypt` uses N·r·p = 2¹⁷.
enum PKCS8Encryption {
    /// About 4 million PBKDF2 iterations: a few seconds, 2,000 times OpenSSL's default.
    static let maximumIterations: UInt64 = 1 << 22
    /// scrypt's N·r·p: 128 times OpenSSL's default.
    static let maximumScryptWork: UInt64 = 1 << 24

    private static let pbes2: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0D]
    private static let pbkdf2: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0C]
    private static let scrypt: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0xDA, 0x47, 0x04, 0x0B]
    private static let tooCostly = SSHKeyError.opening(.unsupported, "its PKCS#8 encryption asks for more key derivation work than is accepted")

    /// Throws `.unsupported` when the DER of an `ENCRYPTED PRIVATE KEY` asks for more work than
    /// allowed or for a PBES2 key derivation other than PBKDF2 and scrypt; `KeyFileDefect` when
    /// its structure is not `SEQUENCE { AlgorithmIdentifier, OCTET STRING }`.
    static func checkCost(_ der: UnsafeRawBufferPointer) throws {
        var outer = DERReader(der)
        var info = try outer.enter(DERReader.sequence)
        var algorithm = try info.enter(DERReader.sequence)
        _ = try info.read(DERReader.octetString)
        guard outer.isAtEnd, info.isAtEnd else { throw KeyFileDefect("its encrypted PKCS#8 structure is malformed") }
        let scheme = try algorithm.read(DERReader.objectIdentifier)
        var parameters = try algorithm.enter(DERReader.sequence)
        guard scheme.elementsEqual(pbes2) else {
            // PKCS#5 v1.5 and PKCS#12: SEQUENCE { salt OCTET STRING, iterations INTEGER }.
            try parameters.skipElement()
            guard try value(parameters.read(DERReader.integer)) <= maximumIterations else { throw tooCostly }
            return
        }
        var derivation = try parameters.enter(DERReader.sequence)
        let function = try derivation.read(DERReader.objectIdentifier)
        var settings = try derivation.enter(DERReader.sequence)
        try settings.skipElement()  // salt
        if function.elementsEqual(pbkdf2) {
            guard try value(settings.read(DERReader.integer)) <= maximumIterations else { throw tooCostly }
        } else if function.elementsEqual(scrypt) {
            var work: UInt64 = 1
            for _ in 0..<3 {  // N, r, p
                let (product, overflow) = work.multipliedReportingOverflow(by: try value(settings.read(DERReader.integer)))
                guard !overflow, product <= maximumScryptWork else { throw tooCostly }
                work = product
            }
        } else {
            throw SSHKeyError.opening(.unsupported, "its PKCS#8 encryption uses a key derivation other than PBKDF2 and scrypt")
        }
    }

    /// A non-negative DER INTEGER that fits 64 bits; larger ones are past every bound anyway.
    private static func value(_ integer: UnsafeRawBufferPointer) throws -> UInt64 {
        guard let first = integer.first, first < 0x80 else { throw KeyFileDefect("its encrypted PKCS#8 structure is malformed") }
        let magnitude = DERReader.magnitude(integer)
        guard magnitude.count <= 8 else { throw tooCostly }
        return magnitude.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
