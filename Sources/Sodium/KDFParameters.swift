internal import CSodium

/// Argon2id parameters, stored beside whatever they protect so a vault opens with the exact
/// settings it was created with.
public struct KDFParameters: Sendable, Equatable {
    /// The only algorithm this build writes: Argon2id v1.3.
    public static let argon2id13 = "argon2id13"
    public static let saltCount = Int(crypto_pwhash_SALTBYTES)

    public let algorithm: String
    public let opsLimit: UInt64
    public let memLimit: UInt64
    public let salt: [UInt8]

    public init(algorithm: String = KDFParameters.argon2id13, opsLimit: UInt64, memLimit: UInt64, salt: [UInt8]) {
        self.algorithm = algorithm
        self.opsLimit = opsLimit
        self.memLimit = memLimit
        self.salt = salt
    }

    /// What new vaults use: 3 passes over 64 MiB (about 0.1 s on a laptop core).
    public static func recommended() -> KDFParameters {
        KDFParameters(opsLimit: 3, memLimit: 64 << 20, salt: Random.bytes(count: saltCount))
    }

    /// The cheapest parameters libsodium accepts. For tests only: never for a real vault.
    public static func insecureForTesting() -> KDFParameters {
        KDFParameters(opsLimit: UInt64(crypto_pwhash_OPSLIMIT_MIN), memLimit: UInt64(crypto_pwhash_MEMLIMIT_MIN), salt: Random.bytes(count: saltCount))
    }

    /// Below what `recommended()` uses: cheap enough to guess passphrases quickly. Only test
    /// suites should make such a vault.
    public var isWeak: Bool { opsLimit < 3 || memLimit < 64 << 20 }

    /// The parameters in a stable text form, suitable for binding as associated data.
    public var canonicalText: String { "\(algorithm):ops=\(opsLimit):mem=\(memLimit)" }

    /// Rejects parameters a tampered file could use to weaken or exhaust the machine.
    func validate() throws {
        guard algorithm == Self.argon2id13 else { throw SodiumError(.unsupportedVersion, "Unknown key derivation algorithm '\(algorithm)'.") }
        guard salt.count == Self.saltCount else { throw SodiumError(.invalidArgument, "Argon2id salt must be \(Self.saltCount) bytes.") }
        guard opsLimit >= UInt64(crypto_pwhash_OPSLIMIT_MIN), opsLimit <= 64 else { throw SodiumError(.invalidArgument, "Argon2id pass count \(opsLimit) is out of range.") }
        guard memLimit >= UInt64(crypto_pwhash_MEMLIMIT_MIN), memLimit <= 4 << 30 else { throw SodiumError(.invalidArgument, "Argon2id memory limit \(memLimit) is out of range.") }
    }
}
