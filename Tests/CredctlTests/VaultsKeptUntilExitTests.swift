@testable import CredctlKit
import CredentialVault
import XCTest

/// The credctl program does not close the read-only vaults of a command that ends the process,
/// yet their keys are wiped when the command is done; a vault opened to write is never kept, nor
/// is one a command opens without asking to read only (it may start ssh after its last use).
final class VaultsKeptUntilExitTests: CredctlTestCase {
    func testAKeptVaultOutlivesTheCommandLocked() throws {
        try initVault()
        var vault: Vault? = try Vault.openToRead(at: vaultPath)
        XCTAssertEqual(vault?.isReadOnly, true)
        try vault?.unlock(.keyFile(path: keyFile))
        XCTAssertEqual(vault?.isUnlocked, true)
        weak let held = vault
        let kept = VaultsKeptUntilExit()
        kept.keep(try XCTUnwrap(vault))
        vault = nil
        kept.commandEnded()
        let survivor = try XCTUnwrap(held, "the vault is not torn down")
        XCTAssertFalse(survivor.isUnlocked, "its keys are wiped")
    }

    func testOnlyVaultsOpenedToReadAreKept() throws {
        try initVault()
        XCTAssertFalse(try Vault.open(at: vaultPath).isReadOnly)
        let context = Context(globals: GlobalOptions(), environment: ["CREDCTL_VAULT": vaultPath], keptUntilExit: VaultsKeptUntilExit())
        weak let written = try context.openVault()
        XCTAssertNil(written, "a vault opened to write is closed as usual")
    }
}
