internal import CCrypto
import Sodium

/// bcrypt_pbkdf, the KDF of encrypted `openssh-key-v1` keys (OpenBSD `bcrypt_pbkdf(3)`).
///
/// PBKDF2's shape with the bcrypt hash in place of HMAC: the passphrase is hashed once with
/// SHA-512; each 32-byte output block hashes salt ‖ block number, runs the bcrypt hash
/// (`ccrypto_bcrypt_hash`, optimised C) `rounds` times, each round on the SHA-512 of the last,
/// and XORs the results. Unlike PBKDF2 the blocks' bytes are interleaved, so every byte of the
/// key needs every block. Every intermediate value lives in guarded memory.
enum BcryptPBKDF {
    /// The most rounds a key file may ask for. Each round costs about 3 ms per output block here
    /// (AES-256-CTR needs two): OpenSSH's default of 16 takes about 0.1 s, and the 100 guides
    /// suggest about 0.7 s. 4,096 rounds take about 27 s, longer than an ssh client waits for
    /// its agent; a file asking for more (OpenSSH reads up to 2³²−1, days of work) is refused
    /// rather than left to hang the agent.
    static let maximumRounds: UInt32 = 1 << 12
    /// OpenSSH writes 16-byte salts.
    static let maximumSaltCount = 1024
    private static let blockCount = 32

    /// `count` bytes (at most 1,024, as OpenSSH allows) derived from `passphrase` (not empty).
    static func derive(passphrase: SecretBytes, salt: [UInt8], rounds: UInt32, count: Int) throws -> SecretBytes {
        precondition(passphrase.count > 0 && !salt.isEmpty && rounds > 0 && count > 0 && count <= blockCount * blockCount,
                     "bcrypt_pbkdf arguments out of range")
        let key = try SecretBytes(zeroedCount: count)
        let passDigest = try SecretBytes(zeroedCount: SHA512.digestCount)
        let saltDigest = try SecretBytes(zeroedCount: SHA512.digestCount)
        let roundHash = try SecretBytes(zeroedCount: blockCount)
        let block = try SecretBytes(zeroedCount: blockCount)
        passphrase.withUnsafeBytes { input in passDigest.withUnsafeMutableBytes { SHA512.hash(input, into: $0) } }
        // `stride` blocks; block b's byte i lands at key[i * stride + b - 1].
        let stride = (count + blockCount - 1) / blockCount
        for number in 1...stride {
            let countedSalt = salt + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: number >> $0) }
            countedSalt.withUnsafeBytes { input in saltDigest.withUnsafeMutableBytes { SHA512.hash(input, into: $0) } }
            bcryptHash(passDigest, saltDigest, into: roundHash)
            copy(roundHash, into: block)
            for _ in 1..<rounds {
                roundHash.withUnsafeBytes { input in saltDigest.withUnsafeMutableBytes { SHA512.hash(input, into: $0) } }
                bcryptHash(passDigest, saltDigest, into: roundHash)
                xor(roundHash, into: block)
            }
            key.withUnsafeMutableBytes { out in
                block.withUnsafeBytes { bytes in
                    for (index, destination) in Swift.stride(from: number - 1, to: count, by: stride).enumerated() {
                        out[destination] = bytes[index]
                    }
                }
            }
        }
        return key
    }

    private static func bcryptHash(_ passDigest: SecretBytes, _ saltDigest: SecretBytes, into out: SecretBytes) {
        passDigest.withUnsafeBytes { pass in
            saltDigest.withUnsafeBytes { salt in
                out.withUnsafeMutableBytes { out in
                    ccrypto_bcrypt_hash(pass.baseAddress!.assumingMemoryBound(to: UInt8.self), salt.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                        out.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
    }

    private static func copy(_ source: SecretBytes, into target: SecretBytes) {
        source.withUnsafeBytes { bytes in target.withUnsafeMutableBytes { $0.copyMemory(from: bytes) } }
    }

    private static func xor(_ source: SecretBytes, into target: SecretBytes) {
        source.withUnsafeBytes { bytes in
            target.withUnsafeMutableBytes { out in
                for index in 0..<out.count { out[index] ^= bytes[index] }
            }
        }
    }
}
