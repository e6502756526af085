internal import CCrypto
import Synchronization

/// A private key held by OpenSSL (an `EVP_PKEY`), for RSA, ECDSA and DSA, and for whatever an
/// OpenSSL PEM file holds.
///
/// It owns the key: it is made by a throwing `init` and freed in `deinit`, where OpenSSL clears
/// its private numbers (`BN_clear_free`). Numbers handed in are views of guarded memory, which
/// OpenSSL copies; the pointer never leaves this type. Signatures are made one at a time under
/// a lock, so an agent signing from several threads does not depend on how far OpenSSL's own
/// thread safety reaches for a shared key (signing takes milliseconds; nothing waits long).
final class OpenSSLKey {
    enum Kind { case rsa, ecdsa, dsa, ed25519, other }

    private let key: OpaquePointer
    private let signing = Mutex(())

    /// From OpenSSH's RSA fields in their order: n, e, d, iqmp, p, q.
    convenience init(rsa fields: [UnsafeRawBufferPointer]) throws {
        try self.init { error, length, made in Self.withIntegers(fields) { ccrypto_rsa_key($0, made, error, length) } }
    }

    /// From an ECDSA key's OpenSSL group name, public point and private scalar.
    convenience init(group: String, point: UnsafeRawBufferPointer, scalar: UnsafeRawBufferPointer) throws {
        try self.init { error, length, made in
            Self.withIntegers([point, scalar]) { ccrypto_ec_key(group, $0, $0 + 1, made, error, length) }
        }
    }

    /// From OpenSSH's DSA fields in their order: p, q, g, y, x.
    convenience init(dsa fields: [UnsafeRawBufferPointer]) throws {
        try self.init { error, length, made in Self.withIntegers(fields) { ccrypto_dsa_key($0, made, error, length) } }
    }

    /// From an OpenSSL PEM file; `passphrase` is NUL-terminated (in guarded memory) or nil.
    convenience init(pem: UnsafeRawBufferPointer, passphrase: UnsafePointer<CChar>?) throws {
        try self.init { error, length, made in
            ccrypto_pem_key(pem.baseAddress?.assumingMemoryBound(to: UInt8.self), pem.count, passphrase, made, error, length)
        }
    }

    private init(_ make: (UnsafeMutablePointer<CChar>, Int, UnsafeMutablePointer<OpaquePointer?>) -> Int32) throws {
        var made: OpaquePointer?
        try LibCrypto.call(LibCrypto.malformedKey) { make($0, $1, &made) }
        guard let made else { throw LibCrypto.malformedKey("no key was made") }
        key = made
    }

    deinit { ccrypto_key_free(key) }

    var kind: Kind {
        switch ccrypto_key_kind(key) {
        case CCRYPTO_KIND_RSA: .rsa
        case CCRYPTO_KIND_EC: .ecdsa
        case CCRYPTO_KIND_DSA: .dsa
        case CCRYPTO_KIND_ED25519: .ed25519
        default: .other
        }
    }

    /// Throws `.malformed` unless the private half belongs to the public half.
    func check() throws {
        try LibCrypto.call({ SSHKeyError.opening(.malformed, "its private part does not belong to its public key (\($0))") }) {
            ccrypto_key_check(key, $0, $1)
        }
    }

    /// A public integer ("n", "e"; "p", "q", "g", "pub"), big-endian without leading zeros.
    func integer(_ name: String) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 2_048)
        var length = 0
        try LibCrypto.call(LibCrypto.malformedKey) { ccrypto_key_integer(key, name, &out, out.count, &length, $0, $1) }
        return Array(out.prefix(length))
    }

    /// An ECDSA key's OpenSSL group name and uncompressed public point.
    func ecPublicKey() throws -> (group: String, point: [UInt8]) {
        var group = [CChar](repeating: 0, count: 64)
        var point = [UInt8](repeating: 0, count: 256)
        var length = 0
        try LibCrypto.call(LibCrypto.malformedKey) { ccrypto_key_ec_public(key, &group, group.count, &point, point.count, &length, $0, $1) }
        return (String(decoding: group.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), Array(point.prefix(length)))
    }

    /// Writes an Ed25519 key's 32-byte seed into `seed` (guarded memory).
    func rawPrivateKey(into seed: UnsafeMutableRawBufferPointer) throws {
        var length = 0
        try LibCrypto.call(LibCrypto.malformedKey) {
            ccrypto_key_raw_private(key, seed.baseAddress?.assumingMemoryBound(to: UInt8.self), seed.count, &length, $0, $1)
        }
        guard length == seed.count else { throw LibCrypto.malformedKey("its Ed25519 key has the wrong length") }
    }

    /// OpenSSL's signature of `data` with `digest` ("SHA1", "SHA256", …): PKCS#1 v1.5 for RSA,
    /// DER for ECDSA and DSA. A digest OpenSSL refuses (a system policy may forbid SHA-1) is
    /// `.unavailable`.
    func sign(_ data: [UInt8], digest: String) throws -> [UInt8] {
        try signing.withLock { _ in
            var signature = [UInt8](repeating: 0, count: 4_096)
            var length = 0
            try LibCrypto.call({ SSHKeyError(.unavailable, "Unable to sign: OpenSSL refused (\($0)).") }) {
                ccrypto_sign(key, digest, data, data.count, &signature, signature.count, &length, $0, $1)
            }
            return Array(signature.prefix(length))
        }
    }

    /// Calls `body` with `views` as a C array of `ccrypto_integer`.
    private static func withIntegers(_ views: [UnsafeRawBufferPointer], _ body: (UnsafePointer<ccrypto_integer>) -> Int32) -> Int32 {
        let integers = views.map { ccrypto_integer(bytes: $0.baseAddress?.assumingMemoryBound(to: UInt8.self), length: $0.count) }
        return integers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
