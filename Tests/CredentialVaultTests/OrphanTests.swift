import Foundation
import XCTest
@testable import CredentialVault
import struct Identifiers.UUID

/// Bodies that no record names are counted, never usable, kept for a grace period and then
/// collected on this device only.
final class OrphanTests: VaultTestCase {
    func testAnOrphanIsKeptForTheGracePeriodThenCollectedLocally() throws {
        let vault = try makeVault()
        try vault.addHost(Host(label: "kept", hostname: "kept.example"), password: try secret("in use"))
        let stray = SecretReference.hostPassword(UUID()).key
        try vault.secrets.put(try secret("no record names me"), for: stray, availability: .syncable)
        XCTAssertEqual(try vault.orphanedSecrets(), [stray])
        XCTAssertEqual(try vault.status().orphans, 1)

        XCTAssertEqual(try vault.secrets.counts().pendingChanges, 1, "queued for upload")
        let start: Int64 = 1_800_000_000
        XCTAssertEqual(try vault.collectOrphans(now: start), [], "first seen now")
        XCTAssertEqual(try vault.collectOrphans(now: start + 29 * 86_400), [], "still within the grace period")
        XCTAssertEqual(try vault.collectOrphans(now: start + 31 * 86_400), [stray])
        XCTAssertEqual(try vault.orphanedSecrets(), [])
        XCTAssertEqual(try vault.secrets.state(of: stray), .absent, "gone, and without a deletion marker that would travel")
        XCTAssertEqual(try vault.secrets.counts().pendingChanges, 0, "its queued upload went too")
        XCTAssertEqual(bytes(of: try vault.readSecret(try XCTUnwrap(try vault.host("kept").passwordRef))), Array("in use".utf8))
    }

    func testABodyWhoseRecordArrivesIsNoLongerAnOrphan() throws {
        let vault = try makeVault()
        let host = Host(label: "late", hostname: "late.example")
        let reference = SecretReference.hostPassword(host.id)
        try vault.secrets.put(try secret("arrived first"), for: reference.key, availability: .syncable)
        let start: Int64 = 1_800_000_000
        XCTAssertEqual(try vault.collectOrphans(now: start), [])
        var named = host
        named.passwordRef = reference
        named.authMethod = .password
        try vault.config.save(named)
        XCTAssertEqual(try vault.collectOrphans(now: start + 10 * 86_400), [])
        XCTAssertEqual(try vault.collectOrphans(now: start + 60 * 86_400), [], "named again: the sighting was forgotten")
        XCTAssertEqual(bytes(of: try vault.readSecret(reference)), Array("arrived first".utf8))
    }
}
