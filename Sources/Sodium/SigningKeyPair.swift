internal import CSodium

/// An Ed25519 signing pair (`crypto_sign`): a device signs every object it writes, and readers
/// verify with the public half the roster gives it (docs/devices.md). The secret half lives in
/// guarded memory. The corresponding C functions are `crypto_sign_seed_keypair`,
/// `crypto_sign_detached` and `crypto_sign_verify_detached`.
public struct SigningKeyPair: Sendable {
    public static let publicKeyCount = Int(crypto_sign_PUBLICKEYBYTES)
    public static let seedCount = Int(crypto_sign_SEEDBYTES)
    public static let signatureCount = Int(crypto_sign_BYTES)

    public let publicKey: [UInt8]
    /// The 32-byte seed the pair derives from: all that needs storing.
    public let seed: SecretBytes
    private let secretKey: SecretBytes

    /// A new random pair.
    public static func generate() throws -> SigningKeyPair { try SigningKeyPair(seed: try SecretBytes.random(count: seedCount)) }

    /// The pair of `seed` (stored, or derived from a recovery key).
    public init(seed: SecretBytes) throws {
        SodiumRuntime.ensureInitialized()
        guard seed.count == Self.seedCount else { throw SodiumError(.invalidArgument, "A signing seed must be \(Self.seedCount) bytes.") }
        var publicKey = [UInt8](repeating: 0, count: Self.publicKeyCount)
        let secretKey = try SecretBytes(zeroedCount: Int(crypto_sign_SECRETKEYBYTES))
        let status = secretKey.withUnsafeMutableBytes { secret in
            seed.withUnsafeBytes { seedBytes in
                crypto_sign_seed_keypair(&publicKey, secret.baseAddress!.assumingMemoryBound(to: UInt8.self), seedBytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        precondition(status == 0, "crypto_sign_seed_keypair failed for valid arguments")
        self.publicKey = publicKey
        self.seed = seed
        self.secretKey = secretKey
    }

    /// The detached signature of `message`.
    public func sign(_ message: [UInt8]) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: Self.signatureCount)
        let status = secretKey.withUnsafeBytes { secret in
            crypto_sign_detached(&signature, nil, message, UInt64(message.count), secret.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        precondition(status == 0, "crypto_sign_detached failed for valid arguments")
        return signature
    }

    /// Whether `signature` is `publicKey`'s over `message`. Any malformed key or signature is
    /// simply false: these bytes come from the remote.
    public static func verify(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        SodiumRuntime.ensureInitialized()
        guard signature.count == signatureCount, publicKey.count == publicKeyCount else { return false }
        return crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
    }
}
