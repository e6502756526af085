@testable import SSHKeys
import XCTest

/// How CCrypto's status codes become errors. A machine without libcrypto cannot be arranged in a
/// test (dlopen finds the system's copy whatever the environment), so the codes are fed directly.
final class LibCryptoTests: XCTestCase {
    /// ccrypto.h's codes.
    private let failed: Int32 = 1, unavailable: Int32 = 2, authentication: Int32 = 3, needPassphrase: Int32 = 4, badPassphrase: Int32 = 5

    func testStatusesBecomeKinds() {
        XCTAssertNoThrow(try LibCrypto.call(LibCrypto.malformedKey) { _, _ in 0 })
        let expected: [(Int32, SSHKeyError.Kind)] = [(failed, .malformed), (unavailable, .unavailable), (authentication, .wrongPassphrase),
                                                     (needPassphrase, .passphraseNeeded), (badPassphrase, .wrongPassphrase)]
        for (status, kind) in expected {
            XCTAssertThrowsError(try LibCrypto.call(LibCrypto.malformedKey) { _, _ in status }) { error in
                XCTAssertEqual((error as? SSHKeyError)?.kind, kind, "status \(status)")
            }
        }
    }

    /// A missing libcrypto names the Debian package to install, with dlopen's reason.
    func testUnavailableNamesThePackage() {
        XCTAssertEqual(error(unavailable, reason: "libcrypto.so.3 could not be loaded (no such file)")?.message,
                       "Unable to open the SSH private key: it needs OpenSSL's libcrypto, which could not be loaded "
                       + "(libcrypto.so.3 could not be loaded (no such file)); install the Debian package libssl3.")
    }

    /// A plain failure carries OpenSSL's reason in the caller's words.
    func testFailureCarriesOpenSSLReason() {
        XCTAssertEqual(error(failed, reason: "EVP_PKEY_fromdata failed: invalid key")?.message,
                       "Unable to open the SSH private key: OpenSSL does not accept it as a key (EVP_PKEY_fromdata failed: invalid key).")
    }

    /// The error for a call that returns `status` with `reason` in its error buffer.
    private func error(_ status: Int32, reason: String) -> SSHKeyError? {
        do {
            try LibCrypto.call(LibCrypto.malformedKey) { buffer, length in
                _ = reason.withCString { strncpy(buffer, $0, length - 1) }
                return status
            }
            return nil
        } catch {
            return error as? SSHKeyError
        }
    }
}
