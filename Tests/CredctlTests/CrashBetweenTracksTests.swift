import Foundation
import XCTest
@testable import CredentialVault

/// Kills credctl (SIGKILL, via failpoints) between the secret-track and config-track writes of
/// each multi-step operation. Whatever instant it dies at, the vault afterwards holds either an
/// unreferenced (orphan) body or a reference whose body is missing — never a reference that
/// opens to a wrong body — and the operation can simply be retried.
final class CrashBetweenTracksTests: CredctlTestCase {
    func testKilledAfterTheBodyOfANewHostLeavesAnOrphanAndNoHost() throws {
        try initVault()
        let killed = try credctl.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("first".utf8),
                                     extraEnvironment: ["CREDVAULT_FAILPOINT": "add-host.after-secret"])
        XCTAssertTrue(killed.signaled && killed.status == SIGKILL, "expected SIGKILL, got \(killed.status) \(killed.stderr)")
        let vault = try Vault.open(at: vaultPath)
        XCTAssertEqual(try vault.hosts(), [], "the config write never happened")
        XCTAssertEqual(try vault.secrets.items().count, 1, "the body is an orphan")
        assertStatus(try credctl.run("resolve", "web"), 66)
        XCTAssertTrue(try credctl.run("status").output.contains("1 unreferenced (orphan) body"))
        let orphan = try XCTUnwrap(try vault.orphanedSecrets().first)
        assertStatus(try credctl.run("read", orphan), 66)

        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("second".utf8)), 0)
        let read = try credctl.run("read", "cred://host/web/password")
        assertStatus(read, 0)
        XCTAssertEqual(read.output, "second", "the retried host opens its own body, not the orphan")
    }

    func testKilledAfterTheNewBodyOfAnEditServesTheNewBodyUnderTheSameReference() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("old".utf8)), 0)
        let killed = try credctl.run(["host", "edit", "web", "--password-stdin"], input: Array("new".utf8),
                                     extraEnvironment: ["CREDVAULT_FAILPOINT": "update-host.after-secret"])
        XCTAssertTrue(killed.signaled)
        XCTAssertEqual(try credctl.run("read", "cred://host/web/password").output, "new")
    }

    func testKilledAfterClearingTheReferenceLeavesAnOrphanBodyNobodyCanRead() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("pw".utf8)), 0)
        let reference = try XCTUnwrap(try Vault.open(at: vaultPath).host("web").passwordRef)
        let killed = try credctl.run(["host", "edit", "web", "--no-password"], extraEnvironment: ["CREDVAULT_FAILPOINT": "clear-password.after-config"])
        XCTAssertTrue(killed.signaled)
        let vault = try Vault.open(at: vaultPath)
        XCTAssertNil(try vault.host("web").passwordRef)
        guard case .present = try vault.secrets.state(of: reference.key) else { return XCTFail("the body outlives the crash as an orphan") }
        let resolved = try credctl.run("resolve", "web")
        assertStatus(resolved, 66)
        XCTAssertTrue(resolved.stderr.contains("has no password stored"), resolved.stderr)
        assertStatus(try credctl.run("read", reference.key), 66)
    }

    func testKilledAfterRemovingAHostLeavesAnOrphanThatANewHostOfTheSameLabelNeverGets() throws {
        try initVault()
        assertStatus(try credctl.run(["host", "add", "web", "--hostname", "web.example", "--password-stdin"], input: Array("old".utf8)), 0)
        let killed = try credctl.run(["host", "rm", "web"], extraEnvironment: ["CREDVAULT_FAILPOINT": "remove-host.after-config"])
        XCTAssertTrue(killed.signaled)
        assertStatus(try credctl.run("resolve", "web"), 66)
        // A password host without a password (as another device may send one) must not get the orphan.
        assertStatus(try credctl.run("host", "add", "web", "--hostname", "web.example"), 0)
        assertStatus(try credctl.run("host", "edit", "web", "--auth", "password", "--no-password"), 0)
        let resolved = try credctl.run("resolve", "web")
        assertStatus(resolved, 66)
        XCTAssertTrue(resolved.stderr.contains("no password stored"), "the old body is not attached to the new host: \(resolved.stderr)")
    }

    func testKilledAfterTheBodiesOfAnIdentityLeavesNoIdentity() throws {
        try initVault()
        let key = try makeKey(at: directory + "/id")
        let killed = try credctl.run(["identity", "add", "k", "--private-key", key], extraEnvironment: ["CREDVAULT_FAILPOINT": "add-identity.after-secret"])
        XCTAssertTrue(killed.signaled)
        XCTAssertEqual(try Vault.open(at: vaultPath).identities(), [])
        assertStatus(try credctl.run("identity", "add", "k", "--private-key", key), 0)
        XCTAssertEqual(try credctl.run("read", "cred://identity/k/privkey").stdout, Array(try Data(contentsOf: URL(fileURLWithPath: key))))
    }
}
