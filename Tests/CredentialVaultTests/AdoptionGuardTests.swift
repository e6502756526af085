import Foundation
import XCTest
@testable import CredentialVault

/// A `remote set` cut short after this vault took another vault's key but before its binding
/// was rewritten must not send anything to the old remote.
final class AdoptionGuardTests: VaultTestCase {
    func testAnInterruptedAdoptionStopsUploadsToTheOldRemote() throws {
        let vault = try makeVault()
        let remote = directory + "/remote"
        try vault.setRemote(directory: remote, syncPassphrase: try secret("sync"), kdf: .insecureForTesting())
        try vault.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        // What the interrupted adoption leaves: the new id and key, the old binding.
        try vault.secrets.adoptVault(id: "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f", vaultKey: try .random(count: 32))
        let outcomes = try vault.sync()
        XCTAssertEqual(outcomes.map(\.state), [.needsAttention, .needsAttention])
        XCTAssertTrue(outcomes.first?.reason?.contains("--merge") == true, "\(outcomes)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: remote + "/zones"), "nothing sent")
    }
}
