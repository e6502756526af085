import XCTest
@testable import Sodium

final class Argon2idTests: XCTestCase {
    /// Vectors computed with argon2-cffi 25.1.0 (`argon2.low_level.hash_secret_raw`, `Type.ID`,
    /// version 19, parallelism 1). argon2-cffi's `memory_cost` is in KiB; libsodium's memlimit
    /// is in bytes, hence the factor 1024.
    private struct Vector {
        let passphrase: String
        let salt: String
        let ops: UInt64
        let memKiB: UInt64
        let length: Int
        let key: String
    }

    private let vectors = [
        Vector(passphrase: "password", salt: "000102030405060708090a0b0c0d0e0f", ops: 1, memKiB: 8, length: 32,
               key: "3a008963c65f7ffa7331a90babd1fd17ea9f03bd05356b857ceb43f7b7080adc"),
        Vector(passphrase: "correct horse battery staple", salt: "f0e1d2c3b4a5968778695a4b3c2d1e0f", ops: 3, memKiB: 64, length: 32,
               key: "471cc52d47d5cdc2556ae8c5e3db7936d205e93613ab4840dfd0bf9995191f20"),
        Vector(passphrase: "", salt: "000102030405060708090a0b0c0d0e0f", ops: 2, memKiB: 16, length: 16,
               key: "0ed2148c2ecc013f5a33aa2ab97e1a32"),
    ]

    func testKnownAnswers() throws {
        for vector in vectors {
            let parameters = KDFParameters(opsLimit: vector.ops, memLimit: vector.memKiB * 1024, salt: hexBytes(vector.salt))
            let key = try Argon2id.deriveKey(passphrase: try SecretBytes(utf8: vector.passphrase), parameters: parameters, length: vector.length)
            XCTAssertEqual(hexString(key), vector.key, "ops \(vector.ops) mem \(vector.memKiB) KiB")
        }
    }

    func testInsecureForTestingIsFastAndDeterministic() throws {
        let parameters = KDFParameters.insecureForTesting()
        let passphrase = try SecretBytes(utf8: "passphrase")
        let start = ContinuousClock.now
        let first = try Argon2id.deriveKey(passphrase: passphrase, parameters: parameters)
        let second = try Argon2id.deriveKey(passphrase: passphrase, parameters: parameters)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(1))
        XCTAssertEqual(first.count, 32)
        XCTAssertTrue(first == second)
    }

    func testDifferentSaltsGiveDifferentKeys() throws {
        let passphrase = try SecretBytes(utf8: "passphrase")
        let first = try Argon2id.deriveKey(passphrase: passphrase, parameters: .insecureForTesting())
        let second = try Argon2id.deriveKey(passphrase: passphrase, parameters: .insecureForTesting())
        XCTAssertFalse(first == second)
    }

    func testDifferentPassphrasesGiveDifferentKeys() throws {
        let parameters = KDFParameters.insecureForTesting()
        let first = try Argon2id.deriveKey(passphrase: try SecretBytes(utf8: "one"), parameters: parameters)
        let second = try Argon2id.deriveKey(passphrase: try SecretBytes(utf8: "two"), parameters: parameters)
        XCTAssertFalse(first == second)
    }

    func testLengthTooShortIsRejected() throws {
        assertSodiumError(.invalidArgument, try Argon2id.deriveKey(passphrase: try SecretBytes(utf8: "x"), parameters: .insecureForTesting(), length: 15))
        XCTAssertEqual(try Argon2id.deriveKey(passphrase: try SecretBytes(utf8: "x"), parameters: .insecureForTesting(), length: 64).count, 64)
    }

    func testInvalidParametersAreRejectedBeforeDeriving() throws {
        let passphrase = try SecretBytes(utf8: "x")
        let salt = [UInt8](repeating: 0, count: KDFParameters.saltCount)
        assertSodiumError(.unsupportedVersion, try Argon2id.deriveKey(passphrase: passphrase, parameters: KDFParameters(algorithm: "scrypt", opsLimit: 1, memLimit: 8192, salt: salt)))
        assertSodiumError(.invalidArgument, try Argon2id.deriveKey(passphrase: passphrase, parameters: KDFParameters(opsLimit: 1, memLimit: 8192, salt: [1, 2, 3])))
        // A tampered file asking for 1 TiB must be refused, not attempted.
        assertSodiumError(.invalidArgument, try Argon2id.deriveKey(passphrase: passphrase, parameters: KDFParameters(opsLimit: 1, memLimit: 1 << 40, salt: salt)))
    }
}
