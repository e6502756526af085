import Foundation
import XCTest

extension CredctlTestCase {
    /// Makes an OpenSSH key pair with the system's ssh-keygen at `path` (and `path.pub`):
    /// `type` ed25519, rsa or ecdsa, encrypted with `passphrase` unless it is empty, in PEM
    /// form with `pem`. Returns `path`.
    @discardableResult
    func makeKey(at path: String, type: String = "ed25519", passphrase: String = "", comment: String = "test", pem: Bool = false,
                 file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let keygen = Process()
        keygen.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        keygen.arguments = ["-q", "-t", type, "-N", passphrase, "-C", comment, "-f", path] + (pem ? ["-m", "PEM"] : [])
        try keygen.run()
        keygen.waitUntilExit()
        XCTAssertEqual(keygen.terminationStatus, 0, "ssh-keygen", file: file, line: line)
        return path
    }
}
