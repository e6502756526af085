import Foundation
import XCTest

/// Edge cases of the command line: odd option values, unlock sources, output failures,
/// terminals, concurrent creation.
final class CredctlEdgeCaseTests: CredctlTestCase {
    private func sh(_ script: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = credctl.environment.merging(["CREDCTL": CredctlRunner.binary]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testAFullStandardOutputIsAFailureNotASuccess() throws {
        try initVault()
        assertStatus(try credctl.run("host", "add", "web", "--hostname", "h.example"), 0)
        let full = try sh("\"$CREDCTL\" host list > /dev/full")
        XCTAssertEqual(full.status, 1)
        XCTAssertTrue(full.output.contains("Could not write to standard output"), full.output)
    }

    func testEmptyOptionValuesAreUsageErrors() throws {
        for arguments in [["--vault=", "status"], ["status", "--key-file", ""], ["--passphrase-file=", "host", "list"]] {
            let result = try credctl.run(arguments)
            assertStatus(result, 64)
            XCTAssertTrue(result.stderr.contains("needs a non-empty value"), result.stderr)
        }
    }

    func testVersionWinsAnywhere() throws {
        XCTAssertEqual(try credctl.run("host", "list", "--version").output, "credctl 0.1.0\n")
    }

    func testAnOptionBeatsTheOtherKindOfEnvironmentVariable() throws {
        let passphraseFile = directory + "/pass"
        _ = FileManager.default.createFile(atPath: passphraseFile, contents: Data("correct horse\n".utf8), attributes: [.posixPermissions: 0o600])
        var runner = credctl!
        runner.environment["CREDCTL_KEY_FILE"] = directory + "/unrelated.key"
        assertStatus(try runner.run("init", "--passphrase-file", passphraseFile), 0)
        assertStatus(try runner.run(["host", "add", "web", "--hostname", "h", "--password-stdin", "--passphrase-file", passphraseFile], input: Array("pw".utf8)), 0)
        runner.environment["CREDCTL_PASSPHRASE_FILE"] = passphraseFile
        let both = try runner.run("read", "cred://host/web/password")
        assertStatus(both, 64)
        XCTAssertTrue(both.stderr.contains("Both CREDCTL_KEY_FILE and CREDCTL_PASSPHRASE_FILE are set"), both.stderr)
    }

    func testMissingUnlockFilesLeaveTheVaultLocked() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "h", "--password-stdin"], input: Array("pw".utf8)), 0)
        assertStatus(try credctl.run("read", "cred://host/web/password", "--key-file", directory + "/nope"), 77)
        assertStatus(try credctl.run("read", "cred://host/web/password", "--passphrase-file", directory + "/nope"), 77)
        assertStatus(try credctl.run("read", "cred://host//password"), 65)
    }

    func testRevealedSecretsHaveStableFieldsAndSurviveNonUTF8() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "h", "--password-stdin"], input: [0x61, 0xff, 0xfe, 0x62]), 0)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try credctl.run("resolve", "web", "--json", "--reveal").stdout)) as? [String: Any])
        let auth = try XCTUnwrap(json["auth"] as? [String: Any])
        XCTAssertTrue(auth["secret"] is NSNull)
        XCTAssertEqual(auth["secret_base64"] as? String, Data([0x61, 0xff, 0xfe, 0x62]).base64EncodedString())
        XCTAssertTrue(try credctl.run("resolve", "web", "--reveal").output.contains("Password (Base64): Yf/+Yg=="))
    }

    func testPasswordTypedOnATerminalIsNotEchoed() throws {
        try initVault()
        let typed = try sh("(sleep 1; printf 'Typed-Secret-77\\n') | script -qec '\"$CREDCTL\" host add web --hostname h --password-stdin' /dev/null")
        XCTAssertTrue(typed.output.contains("Password: "), typed.output)
        XCTAssertFalse(typed.output.contains("Typed-Secret-77"), "the password was echoed: \(typed.output)")
        XCTAssertEqual(try credctl.run("read", "cred://host/web/password").output, "Typed-Secret-77")
    }

    func testTwoInitsAtOnceLeaveOneWorkingVault() throws {
        for round in 0..<5 {
            let vault = directory + "/race-\(round)"
            let both = try sh("\"$CREDCTL\" --vault \(vault) init --key-file \(directory)/k\(round)a & \"$CREDCTL\" --vault \(vault) init --key-file \(directory)/k\(round)b & wait")
            let created = both.output.components(separatedBy: "Created vault").count - 1
            XCTAssertEqual(created, 1, both.output)
            assertStatus(try credctl.run("--vault", vault, "status"), 0)
        }
    }

    func testForwardSpecificationsFollowSsh() throws {
        try initVault()
        assertStatus(try credctl.run("host", "add", "web", "--hostname", "h.example"), 0)
        assertStatus(try credctl.run("forward", "add", "web", "--local", ":8080:localhost:80"), 0)
        assertStatus(try credctl.run("forward", "add", "web", "--remote", "0:localhost:22"), 0)
        let duplicate = try credctl.run("forward", "add", "web", "--local", "*:8080:localhost:80")
        assertStatus(duplicate, 65)
        XCTAssertTrue(duplicate.stderr.contains("already has the local forward *:8080:localhost:80"), duplicate.stderr)
        let bracket = try credctl.run("forward", "add", "web", "--dynamic", "a[b]c:1080")
        assertStatus(bracket, 65)
        let port = try credctl.run("forward", "add", "web", "--dynamic", "x:abc")
        XCTAssertTrue(port.stderr.contains("'abc' in the forward 'x:abc' is not a port number."), port.stderr)
        assertStatus(try credctl.run("forward", "add", "web", "--local", "0:localhost:80"), 65)
    }

    func testAuthMethodAndPasswordMustFit() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "h", "--auth", "agent", "--password-stdin"], input: Array("pw".utf8)), 64)
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "h", "--password-stdin"], input: Array("pw".utf8)), 0)
        let cleared = try credctl.run("host", "edit", "web", "--no-password")
        assertStatus(cleared, 0)
        XCTAssertEqual(cleared.stderr, "credctl: warning: host 'web' uses password authentication but has no password stored.\n")
        let agent = try credctl.run(["host", "edit", "web", "--auth", "agent", "--password-stdin"], input: Array("pw".utf8))
        XCTAssertEqual(agent.stderr, "credctl: warning: host 'web' uses agent authentication; its stored password is not used (see --auth).\n")
    }

    func testAVaultWithTestSuiteKeyDerivationSaysSo() throws {
        let passphraseFile = directory + "/pass"
        _ = FileManager.default.createFile(atPath: passphraseFile, contents: Data("correct horse".utf8), attributes: [.posixPermissions: 0o600])
        let created = try credctl.run("init", "--passphrase-file", passphraseFile)
        assertStatus(created, 0)
        XCTAssertTrue(created.stderr.hasPrefix("credctl: warning: CREDCTL_INSECURE_FAST_KDF=1"), created.stderr)
        XCTAssertTrue(try credctl.run("status").output.contains("Passphrase:  Argon2id, 1 passes over 8 KiB (WEAK: test-suite parameters)"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try credctl.run("status", "--json").stdout)) as? [String: Any])
        XCTAssertEqual((json["passphrase_kdf"] as? [String: Any])?["weak"] as? Bool, true)
    }
}
