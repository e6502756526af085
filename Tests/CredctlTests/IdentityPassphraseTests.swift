import Foundation
import XCTest

/// `identity add` checks an encrypted key's passphrase with OpenSSH before storing anything: a
/// wrong one is refused, none is said, and on a terminal it is asked for (no echo, three tries).
final class IdentityPassphraseTests: CredctlTestCase {
    private func keygen(_ name: String, type: String, passphrase: String, pem: Bool = false) throws -> String {
        try makeKey(at: directory + "/" + name, type: type, passphrase: passphrase, comment: name, pem: pem)
    }

    private func identities() throws -> String { try credctl.run("identity", "list").output }

    func testAWrongPassphraseIsRefusedAndARightOneIsStoredForEveryContainer() throws {
        try initVault()
        for (name, pem) in [("ed", false), ("pem-rsa", true)] {
            let key = try keygen(name, type: name == "ed" ? "ed25519" : "rsa", passphrase: "right horse", pem: pem)
            let wrong = try credctl.run(["identity", "add", name, "--private-key", key, "--passphrase-stdin"], input: Array("wrong horse\n".utf8))
            assertStatus(wrong, 77)
            XCTAssertTrue(wrong.stderr.contains("does not open the private key"), wrong.stderr)
            XCTAssertFalse(wrong.stderr.contains("horse") || wrong.output.contains("horse"))
            XCTAssertFalse(try identities().contains(name), "nothing stored")

            let right = try credctl.run(["identity", "add", name, "--private-key", key, "--passphrase-stdin"], input: Array("right horse\n".utf8))
            assertStatus(right, 0)
            XCTAssertTrue(right.output.contains("passphrase checked and stored"), right.output)
            XCTAssertEqual(try credctl.run("read", "cred://identity/\(name)/passphrase").output, "right horse")
        }
        let plain = try keygen("plain", type: "ed25519", passphrase: "")
        assertStatus(try credctl.run(["identity", "add", "plain", "--private-key", plain, "--passphrase-stdin"], input: Array("x".utf8)), 65)
    }

    func testAnEncryptedKeyWithoutAPassphraseIsSaidAndAskedForOnATerminal() throws {
        try initVault()
        let key = try keygen("enc", type: "ed25519", passphrase: "right horse")
        let silent = try credctl.run(["identity", "add", "quiet", "--private-key", key])
        assertStatus(silent, 0)
        XCTAssertTrue(silent.stderr.contains("encrypted and no passphrase is stored"), silent.stderr)
        XCTAssertTrue(silent.output.contains("no passphrase stored"), silent.output)

        let asked = try TerminalSession.run(["identity", "add", "asked", "--private-key", key],
                                            steps: [.expect("Passphrase of"), .type("wrong horse\n"), .expect("try again"),
                                                    .type("right horse\n"), .expect("Added identity")],
                                            environment: credctl.environment, directory: directory)
        XCTAssertEqual(asked.status, 0, asked.shown)
        XCTAssertFalse(asked.shown.contains("horse"), "no echo: \(asked.shown)")
        XCTAssertTrue(asked.echoesAfterwards)
        XCTAssertEqual(try credctl.run("read", "cred://identity/asked/passphrase").output, "right horse")

        let none = try TerminalSession.run(["identity", "add", "none", "--private-key", key], steps: [.expect("Passphrase of"), .type("\n"), .expect("Added")],
                                           environment: credctl.environment, directory: directory)
        XCTAssertEqual(none.status, 0, none.shown)
        assertStatus(try credctl.run("read", "cred://identity/none/passphrase"), 66)

        let gaveUp = try TerminalSession.run(["identity", "add", "never", "--private-key", key],
                                             steps: [.expect("Passphrase of"), .type("a\n"), .expect("(2 of 3)"), .type("b\n"), .expect("(3 of 3)"), .type("c\n")],
                                             environment: credctl.environment, directory: directory)
        XCTAssertEqual(gaveUp.status, 77, gaveUp.shown)
        XCTAssertFalse(try identities().contains("never"))
    }
}
