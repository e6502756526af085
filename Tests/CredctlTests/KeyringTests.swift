import Foundation
import Keyring
import Sodium
import XCTest
import struct Identifiers.UUID

/// The desktop keyring through libsecret, against a real gnome-keyring-daemon on a private
/// session bus that the test starts itself — and every way of having no usable keyring.
final class KeyringTests: CredctlTestCase {
    private let keyring = Keyring(schema: "org.credvault.Test", attributes: ["vault", "device"])

    func testStoreLookupReplaceAndClearAgainstGnomeKeyring() throws {
        let daemon = try HeadlessKeyring.shared()
        let values = ["vault": "v-\(UUID().uuidString)", "device": "d1"]
        XCTAssertEqual(Keyring.status(), .available)
        XCTAssertNil(try keyring.lookup(values))
        let secret = try SecretBytes(copying: [0, 1, 2, 0xFF] + Array("binary-safe".utf8))
        try keyring.store(secret, label: "CredentialVault test item", values: values)
        XCTAssertEqual(try keyring.lookup(values), secret)
        // The item is really in gnome-keyring: secret-tool, a client of its own, finds it.
        let lookup = Process()
        lookup.executableURL = URL(fileURLWithPath: "/usr/bin/secret-tool")
        lookup.arguments = ["lookup", "vault", values["vault"]!]
        lookup.environment = daemon.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        let output = Pipe()
        lookup.standardOutput = output
        try lookup.run()
        let found = output.fileHandleForReading.readDataToEndOfFile()
        lookup.waitUntilExit()
        XCTAssertEqual(Array(found), [0, 1, 2, 0xFF] + Array("binary-safe".utf8))

        let replacement = try SecretBytes(utf8: "second")
        try keyring.store(replacement, label: "CredentialVault test item", values: values)
        XCTAssertEqual(try keyring.lookup(values), replacement, "same attributes: replaced, not duplicated")
        XCTAssertTrue(try keyring.clear(values))
        XCTAssertFalse(try keyring.clear(values))
        XCTAssertNil(try keyring.lookup(values))
    }

    private func keyringStatus(_ environment: [String: String]) throws -> (state: String, reason: String, seconds: Double) {
        try initVault()
        var runner = credctl!
        runner.environment.merge(environment) { $1 }
        runner.environment["CREDCTL_KEYRING_TIMEOUT_MS"] = "1000"
        let start = Date()
        let result = try runner.run("status", "--json")
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(result.status, 0, result.stderr)
        let keyring = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])?["keyring"] as? [String: Any])
        return (keyring["state"] as? String ?? "", keyring["reason"] as? String ?? "", seconds)
    }

    func testStatusReportsAnAvailableKeyring() throws {
        let daemon = try HeadlessKeyring(provider: .gnomeKeyring)
        XCTAssertEqual(try keyringStatus(daemon.environment).state, "available")
    }

    func testStatusReportsALockedCollection() throws {
        let daemon = try HeadlessKeyring(provider: .gnomeKeyring)
        try daemon.lockLogin()
        let status = try keyringStatus(daemon.environment)
        XCTAssertEqual(status.state, "locked", status.reason)
    }

    func testNoBusNoProviderAndADeadBusAreUnavailableWithTheReasonAtOnce() throws {
        let noProvider = try HeadlessKeyring(provider: .none)
        let cases: [([String: String], String)] = [
            ([:], "no session bus"),
            (["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"], "no session bus"),
            (noProvider.environment, "nothing provides the Secret Service"),
        ]
        for (environment, reason) in cases {
            let status = try keyringStatus(environment)
            XCTAssertEqual(status.state, "unavailable", "\(environment)")
            XCTAssertTrue(status.reason.contains(reason), status.reason)
            XCTAssertLessThan(status.seconds, 10, "bounded, never hanging")
            try? FileManager.default.removeItem(atPath: vaultPath)
            try? FileManager.default.removeItem(atPath: keyFile)
        }
    }

    /// Without libsecret, keyring commands name the package to install, and the rest of credctl
    /// works: it loads libsecret only for the keyring.
    func testWithoutLibsecretKeyringCommandsNameItsPackageAndTheOthersWork() throws {
        let (environment, library) = try HeadlessKeyring.withoutLibsecret(in: directory)
        let status = try keyringStatus(environment)
        XCTAssertEqual(status.state, "unavailable")
        XCTAssertTrue(status.reason.hasPrefix("No desktop keyring: libsecret could not be loaded (\(library): "), status.reason)
        XCTAssertTrue(status.reason.hasSuffix("); install the Debian package libsecret-1-0."), status.reason)

        var runner = credctl!
        runner.environment.merge(environment) { $1 }
        assertStatus(try runner.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        XCTAssertEqual(try runner.run("read", "cred://host/web/password").output, "pw")
        let search = try runner.run("import", "keyring", "--dry-run")
        assertStatus(search, 69)
        XCTAssertTrue(search.stderr.hasPrefix("credctl: error: The desktop keyring cannot be searched: \(status.reason)\n"), search.stderr)
        let method = try runner.run("unlock-method", "set", "keyring")
        assertStatus(method, 77)
        XCTAssertTrue(method.stderr.hasPrefix("credctl: error: The desktop keyring cannot be used: \(status.reason)\n"), method.stderr)
    }
}
