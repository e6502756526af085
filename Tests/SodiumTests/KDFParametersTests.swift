import XCTest
@testable import Sodium

final class KDFParametersTests: XCTestCase {
    private let salt = [UInt8](repeating: 7, count: 16)

    func testSaltCount() {
        XCTAssertEqual(KDFParameters.saltCount, 16)
    }

    func testValidParametersPass() throws {
        try KDFParameters(opsLimit: 1, memLimit: 8192, salt: salt).validate()
        try KDFParameters(opsLimit: 64, memLimit: 4 << 30, salt: salt).validate()
        try KDFParameters.recommended().validate()
        try KDFParameters.insecureForTesting().validate()
    }

    func testWrongSaltSize() {
        for count in [0, 15, 17, 32] {
            assertSodiumError(.invalidArgument, try KDFParameters(opsLimit: 1, memLimit: 8192, salt: [UInt8](repeating: 0, count: count)).validate(), "salt \(count)")
        }
    }

    func testOpsOutOfRange() {
        assertSodiumError(.invalidArgument, try KDFParameters(opsLimit: 0, memLimit: 8192, salt: salt).validate())
        assertSodiumError(.invalidArgument, try KDFParameters(opsLimit: 65, memLimit: 8192, salt: salt).validate())
        assertSodiumError(.invalidArgument, try KDFParameters(opsLimit: .max, memLimit: 8192, salt: salt).validate())
    }

    func testMemoryOutOfRange() {
        assertSodiumError(.invalidArgument, try KDFParameters(opsLimit: 1, memLimit: 8191, salt: salt).validate())
        assertSodiumError(.invalidArgument, try KDFParameters(opsLimit: 1, memLimit: 0, salt: salt).validate())
        assertSodiumError(.invalidArgument, try KDFParameters(opsLimit: 1, memLimit: (4 << 30) + 1, salt: salt).validate())
        assertSodiumError(.invalidArgument, try KDFParameters(opsLimit: 1, memLimit: .max, salt: salt).validate())
    }

    func testUnknownAlgorithm() {
        XCTAssertThrowsError(try KDFParameters(algorithm: "argon2i13", opsLimit: 1, memLimit: 8192, salt: salt).validate()) { error in
            XCTAssertEqual((error as? SodiumError)?.code, .unsupportedVersion)
            XCTAssertEqual("\(error)", "Unknown key derivation algorithm 'argon2i13'.")
        }
        assertSodiumError(.unsupportedVersion, try KDFParameters(algorithm: "", opsLimit: 1, memLimit: 8192, salt: salt).validate())
    }

    func testPresets() {
        let recommended = KDFParameters.recommended()
        XCTAssertEqual(recommended.algorithm, "argon2id13")
        XCTAssertEqual(recommended.opsLimit, 3)
        XCTAssertEqual(recommended.memLimit, 64 << 20)
        XCTAssertEqual(recommended.salt.count, 16)
        let insecure = KDFParameters.insecureForTesting()
        XCTAssertEqual(insecure.opsLimit, 1)
        XCTAssertEqual(insecure.memLimit, 8192)
        XCTAssertNotEqual(insecure.salt, KDFParameters.insecureForTesting().salt, "each call draws a fresh salt")
    }

    func testCanonicalText() {
        XCTAssertEqual(KDFParameters(opsLimit: 3, memLimit: 64 << 20, salt: salt).canonicalText, "argon2id13:ops=3:mem=67108864")
    }

    func testEquality() {
        XCTAssertEqual(KDFParameters(opsLimit: 1, memLimit: 8192, salt: salt), KDFParameters(opsLimit: 1, memLimit: 8192, salt: salt))
        XCTAssertNotEqual(KDFParameters(opsLimit: 1, memLimit: 8192, salt: salt), KDFParameters(opsLimit: 2, memLimit: 8192, salt: salt))
        XCTAssertNotEqual(KDFParameters(opsLimit: 1, memLimit: 8192, salt: salt), KDFParameters(opsLimit: 1, memLimit: 8192, salt: [UInt8](repeating: 8, count: 16)))
    }
}
