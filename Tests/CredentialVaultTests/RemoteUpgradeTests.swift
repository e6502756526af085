import Foundation
import Membership
import Replication
import Sodium
import XCTest
@testable import CredentialVault
@testable import ConfigTrack
@testable import SecretTrack

/// A remote of format 1 — keys wrapped under a sync passphrase in `vault.json`, batches sealed
/// with one shared transport key — is refused with the command that upgrades it; `remote
/// upgrade`, given the old passphrase, makes it format 2 with new keys and this device as its
/// first member; the other devices join it again.
final class RemoteUpgradeTests: VaultTestCase {
    func testAFormatOneRemoteIsRefusedUpgradedAndJoinedAgain() throws {
        let a = try makeVault()
        try a.addHost(Host(label: "web", hostname: "web.example", username: "deploy"), password: try secret("format-one-password"))
        let path = directory + "/remote"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let remote = DirectoryRemote(root: path)
        // What a build of format 1 left: vault.json, A's binding, and A's records in batches sealed with the shared key.
        let transport = try SecretBytes.random(count: 32)
        let old = RemoteVaultKeys(vaultID: a.vaultID, vaultKey: try a.secrets.vaultKeyForPublishing(), transportKey: transport)
        _ = try remote.createOnly("vault.json", bytes: try old.encoded(passphrase: try secret("old sync words"), kdf: .insecureForTesting()))
        let binding: [String: Any] = ["kind": "directory", "location": path, "vault_id": a.vaultID,
                                      "transport_key": transport.withUnsafeBytes { Base64.encode($0) }, "keys_digest": "AAAA"]
        try JSONSerialization.data(withJSONObject: binding).write(to: URL(fileURLWithPath: vaultPath + "/remote.json"))
        try a.secrets.migrateDeviceOnlyItems()
        _ = try ZoneEngine(store: ConfigZone(store: a.config), remote: remote, transportKey: transport).run()
        _ = try ZoneEngine(store: SecretZone(store: a.secrets), remote: remote, transportKey: transport).run()
        XCTAssertFalse(try remote.list(prefix: "zones/").isEmpty)

        // Refused, with the command that upgrades it.
        let refused = assertVaultError(.conflict) { try a.sync() }
        XCTAssertTrue(refused?.hint?.contains("credctl remote upgrade") == true, "\(String(describing: refused))")
        let joining = assertVaultError(.conflict) {
            try Vault.join(at: directory + "/b", remote: .directory(path), join: JoinCredentials(), key: .keyFile(path: directory + "/b.key"), kdf: .insecureForTesting())
        }
        XCTAssertTrue(joining?.message.contains("older format") == true, "\(String(describing: joining))")
        assertVaultError(.wrongKey) { try a.upgradeRemote(syncPassphrase: try secret("a guess")) }

        let recoveryKey = try a.upgradeRemote(syncPassphrase: try secret("old sync words"))
        XCTAssertEqual(try VaultDocument.decode(try XCTUnwrap(try remote.get("vault.json"))).vaultID, a.vaultID)
        XCTAssertEqual(try a.sync().map(\.state), [.available, .available])
        // Nothing of format 1 is left: every zone object is a signed frame, in epoch 1's new keys.
        for name in try remote.list(prefix: "zones/") { XCTAssertNoThrow(try SignedFrame.parse(try XCTUnwrap(try remote.get(name))), name) }
        XCTAssertNotEqual(try a.secrets.vaultKeyForPublishing(), try old.vaultKey.slice(0..<32), "the vault key is new")
        assertVaultError(.conflict) { try a.upgradeRemote(syncPassphrase: try secret("old sync words")) }

        // Another device joins the upgraded remote and reads everything.
        let b = try Vault.join(at: directory + "/b2", remote: .directory(path), join: JoinCredentials(recoveryKey: recoveryKey),
                               key: .keyFile(path: directory + "/b2.key"), kdf: .insecureForTesting()).vault
        _ = try b.sync()
        let host = try b.host("web")
        XCTAssertEqual(bytes(of: try b.readSecret(try SecretReference(parsing: "host.\(CanonicalUUID.text(host.id)).password"))), Array("format-one-password".utf8))
    }
}
