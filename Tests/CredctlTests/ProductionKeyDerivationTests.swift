import Foundation
import XCTest

/// Every unlock path with the parameters real vaults get (3 Argon2id passes over 64 MiB; no
/// `CREDCTL_INSECURE_FAST_KDF`), and the prompts as a person meets them on a real terminal: a
/// passphrase chosen twice, a mismatch, Ctrl-C at the prompt — echo always comes back.
final class ProductionKeyDerivationTests: CredctlTestCase {
    private let passphrase = "correct horse battery staple 7"

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("no /usr/bin/python3 to drive a terminal") }
        credctl.environment["CREDCTL_INSECURE_FAST_KDF"] = nil
        credctl.environment["CREDCTL_KEY_FILE"] = nil
    }

    private func onTerminal(_ arguments: [String], _ steps: [TerminalSession.Step], runner: CredctlRunner? = nil) throws -> TerminalSession.Result {
        try TerminalSession.run(arguments, steps: steps, environment: (runner ?? credctl).environment, directory: directory)
    }

    private func file(_ name: String, _ text: String) -> String {
        let path = directory + "/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        return path
    }

    func testAPassphraseChosenOnATerminalUnlocksWithProductionParameters() throws {
        let made = try onTerminal(["init"], [.expect("New vault passphrase: "), .type(passphrase + "\n"),
                                             .expect("Repeat the passphrase: "), .type(passphrase + "\n")])
        XCTAssertEqual(made.status, 0, made.shown)
        XCTAssertFalse(made.shown.contains(passphrase), "the passphrase was echoed")
        XCTAssertTrue(made.echoesAfterwards)
        let status = try credctl.run("status").output
        XCTAssertTrue(status.contains("Passphrase:  Argon2id, 3 passes over 65536 KiB\n"), status)
        XCTAssertFalse(status.contains("WEAK"), status)

        // The passphrase file and the prompt open it; a wrong passphrase is 77.
        let right = file("right", passphrase + "\n"), wrong = file("wrong", "not the passphrase\n")
        assertStatus(try credctl.run(["--passphrase-file", right, "host", "add", "web", "--hostname", "h.example", "--password-stdin"],
                                     input: Array("stored-on-a-real-kdf".utf8)), 0)
        assertStatus(try credctl.run("--passphrase-file", wrong, "read", "cred://host/web/password"), 77)
        XCTAssertEqual(try credctl.run("--passphrase-file", right, "read", "cred://host/web/password").output, "stored-on-a-real-kdf")
        let prompted = try onTerminal(["read", "cred://host/web/password", "--force-tty"], [.expect("Vault passphrase: "), .type(passphrase + "\n")])
        XCTAssertEqual(prompted.status, 0, prompted.shown)
        XCTAssertTrue(prompted.shown.contains("stored-on-a-real-kdf"))
        XCTAssertFalse(prompted.shown.contains(passphrase))
        let refused = try onTerminal(["read", "cred://host/web/password", "--force-tty"], [.expect("Vault passphrase: "), .type("guess\n")])
        XCTAssertEqual(refused.status, 77, refused.shown)
        XCTAssertTrue(refused.echoesAfterwards)
    }

    func testTwoDifferentPassphrasesCreateNothing() throws {
        let result = try onTerminal(["init"], [.expect("New vault passphrase: "), .type(passphrase + "\n"),
                                               .expect("Repeat the passphrase: "), .type("something else\n")])
        XCTAssertEqual(result.status, 65, result.shown)
        XCTAssertTrue(result.shown.contains("differ"), result.shown)
        XCTAssertTrue(result.echoesAfterwards)
        assertStatus(try credctl.run("status"), 66)
    }

    func testCtrlCAtThePromptRestoresEchoAndCreatesNothing() throws {
        let result = try onTerminal(["init"], [.expect("New vault passphrase: "), .type("half typed\u{3}")])
        XCTAssertEqual(result.status, -SIGINT, result.shown)
        XCTAssertTrue(result.echoesAfterwards, "echo stays off after Ctrl-C")
        assertStatus(try credctl.run("status"), 66)
    }
}
