import Sodium
@testable import SSHKeys
import XCTest

final class BcryptPBKDFTests: XCTestCase {
    /// OpenBSD's regression vectors for bcrypt_pbkdf(3) (src/regress/lib/libutil/bcrypt_pbkdf),
    /// as RustCrypto's bcrypt-pbkdf also uses them. They pin Blowfish's pi table, Eksblowfish, the
    /// SHA-512 steps and the interleaving of output blocks (the 64-byte one).
    func testOpenBSDVectors() throws {
        let lorem = "Lorem ipsum dolor sit amet, consectetur adipisicing elit, sed do eiusmod tempor incididunt ut labore "
            + "et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip "
            + "ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu "
            + "fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt "
            + "mollit anim id est laborum."
        let vectors: [(password: String, salt: String, rounds: UInt32, key: String)] = [
            ("password", "salt", 4, "5bbf0cc293587f1c3635555c27796598d47e579071bf427e9d8fbe842aba34d9"),
            ("password", "\0", 4, "c12b566235eee04c212598970a579a67"),
            ("\0", "salt", 4, "6051be18c2f4f82cbf0efee5471b4bb9"),
            ("password\0", "salt\0", 4, "7410e44cf4fa07bfaac8a928b1727fac001375e7bf7384370f48efd121743050"),
            ("pass\0wor", "sa\0l", 4, "c2bffd9db38f6569efef4372f4de83c0"),
            ("pass\0word", "sa\0lt", 4, "4ba4ac3925c0e8d7f0cdb6bb1684a56f"),
            ("password", "salt", 8, "e1367ec5151a33faac4cc1c144cd23fa15d5548493ecc99b9b5d9c0d3b27bec7"
                + "6227ea66088b849b20ab7aa478010246e74bba51723fefa9f9474d6508845e8d"),
            ("password", "salt", 42, "833cf0dcf56db65608e8f0dc0ce882bd"),
            (lorem, "salis\0", 8, "10978b07253df57f71a162eb0e8ad30a"),
        ]
        for vector in vectors {
            let key = try BcryptPBKDF.derive(passphrase: try SecretBytes(utf8: vector.password), salt: Array(vector.salt.utf8),
                                             rounds: vector.rounds, count: vector.key.count / 2)
            XCTAssertEqual(key.withUnsafeBytes { SHA256.hex($0) }, vector.key, "rounds \(vector.rounds), \(vector.key.count / 2) bytes")
        }
    }
}
