internal import CSodium

/// An X25519 pair that receives keys in anonymous sealed boxes (`crypto_box_seal`): an epoch's
/// keys are boxed to each member device's box key in the roster (docs/devices.md). Who boxed
/// them is told by the signature on the entry, not by the box. The corresponding C functions
/// are `crypto_box_seed_keypair`, `crypto_box_seal` and `crypto_box_seal_open`.
public struct BoxKeyPair: Sendable {
    public static let publicKeyCount = Int(crypto_box_PUBLICKEYBYTES)
    public static let seedCount = Int(crypto_box_SEEDBYTES)
    /// Bytes a sealed box adds to what it holds.
    public static let overhead = Int(crypto_box_sealbytes())

    public let publicKey: [UInt8]
    /// The 32-byte seed the pair derives from: all that needs storing.
    public let seed: SecretBytes
    private let secretKey: SecretBytes

    /// A new random pair.
    public static func generate() throws -> BoxKeyPair { try BoxKeyPair(seed: try SecretBytes.random(count: seedCount)) }

    /// The pair of `seed`.
    public init(seed: SecretBytes) throws {
        SodiumRuntime.ensureInitialized()
        guard seed.count == Self.seedCount else { throw SodiumError(.invalidArgument, "A box seed must be \(Self.seedCount) bytes.") }
        var publicKey = [UInt8](repeating: 0, count: Self.publicKeyCount)
        let secretKey = try SecretBytes(zeroedCount: Int(crypto_box_SECRETKEYBYTES))
        let status = secretKey.withUnsafeMutableBytes { secret in
            seed.withUnsafeBytes { seedBytes in
                crypto_box_seed_keypair(&publicKey, secret.baseAddress!.assumingMemoryBound(to: UInt8.self), seedBytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        precondition(status == 0, "crypto_box_seed_keypair failed for valid arguments")
        self.publicKey = publicKey
        self.seed = seed
        self.secretKey = secretKey
    }

    /// `secret` sealed to `publicKey`: only the holder of its pair opens it.
    public static func seal(_ secret: SecretBytes, to publicKey: [UInt8]) throws -> [UInt8] {
        SodiumRuntime.ensureInitialized()
        guard publicKey.count == publicKeyCount else { throw SodiumError(.invalidArgument, "A box public key must be \(publicKeyCount) bytes.") }
        var sealed = [UInt8](repeating: 0, count: secret.count + overhead)
        let status = secret.withUnsafeBytes { plain in
            crypto_box_seal(&sealed, plain.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(plain.count), publicKey)
        }
        guard status == 0 else { throw SodiumError(.invalidArgument, "The box public key is not a valid X25519 key.") }
        return sealed
    }

    /// Opens a box sealed to this pair, in guarded memory; anything else (another recipient,
    /// altered, truncated) is `authenticationFailed`.
    public func open(_ sealed: [UInt8]) throws -> SecretBytes {
        guard sealed.count > Self.overhead else { throw SodiumError(.authenticationFailed, "A sealed box is too short.") }
        let plain = try SecretBytes(zeroedCount: sealed.count - Self.overhead)
        let status = plain.withUnsafeMutableBytes { out in
            secretKey.withUnsafeBytes { secret in
                crypto_box_seal_open(out.baseAddress!.assumingMemoryBound(to: UInt8.self), sealed, UInt64(sealed.count), publicKey,
                                     secret.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard status == 0 else { throw SodiumError(.authenticationFailed, "A sealed box does not open with this key.") }
        return plain
    }
}
